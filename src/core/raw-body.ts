/**
 * A handler's answer sent as these bytes with this content type instead of JSON: markup an upstream
 * sent (an archived raw page). Such bytes are someone else's page on our origin, so they are only
 * ever served inert (see inertHeaders). Part of the tool kernel: a handler (the archived page) returns
 * it and the REST door sends it.
 */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
    /** The name a browser saves the download under. */
    readonly filename: string,
  ) {}
}

/**
 * Upstream markup never runs on this origin (where the dashboard lives, and where the URL may carry
 * an api_key): a browser saves it as a file instead of opening it, and if it is ever rendered
 * anyway (inline viewers, an extension, an old browser) the sandbox gives it an opaque origin with
 * no scripts, and it loads nothing. nosniff keeps a JSON or text reply from being read as HTML.
 */
export function inertHeaders(raw: RawBody): Record<string, string> {
  return {
    'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
    'content-disposition': `attachment; filename="${raw.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': 'private, no-store',
  };
}

import type { IncomingHttpHeaders } from 'node:http';
import { BAD_ENCODINGS } from './form-requests.js';
import type { FuzzRequest } from './requests.js';

/** What the edge rules look at in a reply. */
export interface EdgeReply {
  req: FuzzRequest;
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** For a request sent with `Connection: close`: the server closed the socket after the reply. */
  closed: boolean | null;
}

/** Members a registration may echo: what RFC 7591 defines and we keep, and what we issue. */
const REGISTRATION_KEYS = new Set([
  'client_id',
  'client_id_issued_at',
  'client_secret',
  'client_secret_expires_at',
  'redirect_uris',
  'token_endpoint_auth_method',
  'grant_types',
  'response_types',
  'client_name',
  'client_uri',
  'logo_uri',
  'tos_uri',
  'policy_uri',
  'jwks_uri',
  'scope',
  'contacts',
  'software_id',
  'software_version',
]);
const MAX_PROTOCOL_MESSAGE = 200;
/** The dashboard's and the OAuth forms' body limit. */
const FORM_MAX_BYTES = 16 * 1024;
/** What the OAuth token and revocation endpoints may answer (RFC 6749 §5.2, RFC 7009). */
const OAUTH_FORM_STATUSES = new Set([200, 400, 401, 413, 429]);

const isForm = (req: FuzzRequest) => req.method === 'POST' && req.headers['content-type'] === 'application/x-www-form-urlencoded';
const oversized = (req: FuzzRequest) => Buffer.byteLength(req.body ?? '') > FORM_MAX_BYTES;

/** The dashboard: a page for everything (never a 5xx); an address that is not valid percent-encoding is a 400 page; an oversized form a 413. */
function dashboardProblems(r: EdgeReply): string[] {
  const { req, status, headers } = r;
  const out: string[] = [];
  if (status >= 500) out.push(`dashboard answered ${status}`);
  // (a request line Node's parser refuses, a raw non-ASCII byte, is answered before any application: no request id)
  if (status >= 400 && headers['x-request-id'] && !String(headers['content-type']).startsWith('text/html')) out.push(`dashboard ${status} is not a page`);
  if (isForm(req) && oversized(req)) {
    if (status !== 413) out.push(`oversized dashboard form answered ${status}`);
  } else if (req.path.startsWith('/dashboard/watches/') && (BAD_ENCODINGS as readonly string[]).includes(req.path.split('/')[3]!) && status !== 400) {
    out.push(`dashboard address not valid percent-encoding answered ${status}`);
  }
  return out;
}

/** The OAuth token and revocation forms: OAuth's statuses and error shape; an oversized form is 413 invalid_request. */
function oauthFormProblems(r: EdgeReply): string[] {
  const { req, status, text } = r;
  const out: string[] = [];
  const body = json(text);
  if (!OAUTH_FORM_STATUSES.has(status)) out.push(`${req.path} answered ${status}`);
  if (status >= 400 && (typeof body?.error !== 'string' || typeof body.error_description !== 'string'))
    out.push(`${req.path} ${status} not in OAuth's error shape`);
  if (isForm(req) && oversized(req) && (status !== 413 || body?.error !== 'invalid_request'))
    out.push(`oversized ${req.path} form answered ${status} ${String(body?.error)}`);
  return out;
}

/** The members of a reply the rules read (whichever of them it has). */
interface ReplyBody {
  error?: { message?: unknown } | string;
  error_description?: unknown;
  issuer?: unknown;
  token_endpoint?: unknown;
  resource?: unknown;
  authorization_servers?: unknown[];
  servers?: { url?: unknown }[];
  entries?: { id: unknown }[];
}

/** A JSON reply, or the JSON-RPC message of a one-event stream; null when it is neither. */
function json(text: string): ReplyBody | null {
  try {
    const parsed = JSON.parse(text.startsWith('event:') ? (text.split('\ndata: ')[1] ?? '').split('\n')[0] : text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as ReplyBody) : null;
  } catch {
    return null;
  }
}

/** The issuer must be this machine's own URL (the loopback start of the fuzz service), whatever Host said. */
function ownOrigin(url: unknown, port: string): boolean {
  return typeof url === 'string' && new RegExp(`^http://(127\\.0\\.0\\.1|localhost|\\[::1\\]):${port}(/|$)`).test(url);
}

/** The rules of issue 25 over one reply; `port` is the service's. */
export function edgeProblems(r: EdgeReply, port: string): string[] {
  const out: string[] = [];
  const { req, status, headers, text } = r;
  if (status <= 0) return out;
  // every reply of the application (Node's own 431 for oversized headers never reaches it)
  if (headers['x-request-id'] && headers['x-content-type-options'] !== 'nosniff') out.push('no nosniff');
  if (req.headers.connection === 'close') {
    if (headers.connection !== 'close') out.push(`Connection: ${headers.connection ?? '(none)'} answered to Connection: close`);
    if (r.closed === false) out.push('socket left open after Connection: close');
  }
  if (req.path.startsWith('/dashboard')) out.push(...dashboardProblems(r));
  if (req.method === 'POST' && (req.path === '/oauth/token' || req.path === '/oauth/revoke')) out.push(...oauthFormProblems(r));
  if (req.path === '/oauth/register') {
    if (![201, 400, 429].includes(status)) out.push(`registration answered ${status}`);
    const body = json(text);
    if (status === 201) {
      const extra = Object.keys(body ?? {}).filter((k) => !REGISTRATION_KEYS.has(k));
      if (extra.length) out.push(`registration echoed ${extra.slice(0, 3).join(', ')}`);
      if (text.length > 8 * 1024 + 200) out.push(`registration echoed ${text.length} bytes`);
    } else if (typeof body?.error_description !== 'string' || body.error_description.length > 300) out.push('registration error without a short description');
  }
  if (req.op.endsWith('(forged Host)') && status === 200) {
    const body = json(text);
    const urls =
      req.path === '/openapi.json'
        ? [body?.servers?.[0]?.url]
        : req.path.includes('authorization-server')
          ? [body?.issuer, body?.token_endpoint]
          : [body?.resource, ...(body?.authorization_servers ?? [])];
    if (!urls.every((u) => ownOrigin(u, port))) out.push(`issuer followed the Host header: ${urls.join(' ')}`.slice(0, 200));
  }
  if (req.path === '/mcp') {
    const error = json(text)?.error;
    const message = typeof error === 'object' ? error.message : undefined;
    if (typeof message === 'string' && message.length >= MAX_PROTOCOL_MESSAGE) out.push(`JSON-RPC error message of ${message.length} characters`);
  }
  if (req.op === 'GET /v1/billing/ledger' && status === 200) {
    const ids = (json(text)?.entries ?? []).map((e) => e.id);
    if (ids.some((id) => typeof id !== 'string' || !/^led_[0-9a-f]{32}$/.test(id))) out.push('ledger id not random');
  }
  if (req.path.startsWith('/api/v1/searches/') && req.path.endsWith('.html') && status === 200) {
    if (!/^sandbox; default-src 'none'/.test(String(headers['content-security-policy'])) || !String(headers['content-disposition']).startsWith('attachment'))
      out.push('archived page served live');
  }
  return out;
}

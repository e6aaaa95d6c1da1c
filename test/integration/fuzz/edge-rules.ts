import type { IncomingHttpHeaders } from 'node:http';
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
export const MAX_PROTOCOL_MESSAGE = 200;

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

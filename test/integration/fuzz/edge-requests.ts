import fc from 'fast-check';
import type { FuzzRequest } from './requests.js';

/**
 * Requests at the edges an outsider reaches without an account (issue 25): open client
 * registration (oversized, unknown and hostile metadata), the authorization server's metadata under
 * forged Host headers, the MCP handshake with invalid params, and `Connection: close` on any
 * request. Each has its rule in edge-rules.ts.
 */

const REDIRECTS = [
  'http://127.0.0.1:7777/callback',
  'http://localhost:3334/oauth/callback',
  'https://app.example/cb',
  'http://evil.example/cb',
  'javascript:alert(1)',
  'myapp://cb',
  '',
];
const URIS = [
  'https://app.example/',
  'http://app.example/',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  'https://u:p@app.example/',
  'x',
  'https://app.example/' + 'p'.repeat(2000),
];

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'a\u0000b', '\ud800', 'x'.repeat(300), 'y'.repeat(20_000), '<script>alert(1)</script>', '__proto__'),
);

const metadata = fc.record(
  {
    redirect_uris: fc.oneof(fc.array(fc.constantFrom(...REDIRECTS), { minLength: 1, maxLength: 12 }), fc.constant('not a list' as unknown as string[])),
    client_name: hostileText,
    'client_name#fr': hostileText,
    token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'),
    grant_types: fc.constantFrom(['authorization_code'], ['authorization_code', 'refresh_token'], ['implicit'], 'x'),
    client_uri: fc.constantFrom(...URIS),
    logo_uri: fc.constantFrom(...URIS),
    policy_uri: fc.constantFrom(...URIS),
    tos_uri: fc.constantFrom(...URIS),
    scope: hostileText,
    contacts: fc.array(hostileText, { maxLength: 8 }),
    software_statement: fc.constantFrom('eyJhbGciOiJub25lIn0.e30.', 's'.repeat(12_000)),
    jwks: fc.constant({ keys: [{ kty: 'RSA', n: 'n'.repeat(4000), e: 'AQAB' }] }),
    extension: fc.oneof(fc.constant({ nested: { deeper: ['z'.repeat(9000)] } }), fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 6 })),
  },
  { requiredKeys: [] },
);

const RAW_REGISTRATIONS = [
  '',
  '{',
  'null',
  '[]',
  '"x"',
  '{"redirect_uris":["http://127.0.0.1/cb"],"padding":"' + 'x'.repeat(2 * 1024 * 1024) + '"}',
  '{"redirect_uris":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
];

function register(body: string, contentType = 'application/json'): FuzzRequest {
  return {
    op: 'POST /oauth/register',
    kind: 'edge',
    method: 'POST',
    path: '/oauth/register',
    query: '',
    headers: { 'content-type': contentType },
    body,
    recorded: false,
  };
}

/** A registration a real client would send, with unknown members and long (but allowed) ones beside it: these are answered 201 and trimmed. */
const plausible = fc
  .record({
    extra: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.oneof(fc.string({ maxLength: 40 }), fc.constant('w'.repeat(6000)), fc.constant({ deep: [[['x']]] })),
      { maxKeys: 3 },
    ),
    name: fc.string({ minLength: 1, maxLength: 100 }).filter((n) => n.trim().length > 0 && !n.includes('\u0000') && !/[\ud800-\udfff]/.test(n)),
    uri: fc.constantFrom(undefined, 'https://app.example/', 'https://app.example/' + 'p'.repeat(900)),
    contacts: fc.array(fc.constantFrom('ops@app.example', 'x'.repeat(200)), { maxLength: 5 }),
  })
  .map(({ extra, name, uri, contacts }) => ({
    ...extra,
    redirect_uris: ['http://127.0.0.1:7777/callback'],
    client_name: name,
    token_endpoint_auth_method: 'none',
    contacts,
    ...(uri ? { client_uri: uri, logo_uri: uri, policy_uri: uri } : {}),
  }));

const registrations = fc.oneof(
  { weight: 3, arbitrary: plausible.map((m) => register(JSON.stringify(m))) },
  { weight: 3, arbitrary: metadata.map((m) => register(JSON.stringify(m))) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...RAW_REGISTRATIONS), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'))
      .map(([b, t]) => register(b, t)),
  },
);

const FORGED_HOSTS = [
  'evil.example',
  'evil.example:443',
  'localhost:1',
  '127.0.0.1',
  '[::1]:80',
  'api.example.test',
  'a'.repeat(300),
  'evil.example, 127.0.0.1',
];
const DISCOVERY = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource',
  '/openapi.json',
];

const discovery = fc.tuple(fc.constantFrom(...DISCOVERY), fc.constantFrom(...FORGED_HOSTS), fc.boolean()).map(([path, host, forwarded]): FuzzRequest => ({
  op: `GET ${path} (forged Host)`,
  kind: 'edge',
  method: 'GET',
  path,
  query: '',
  headers: { host, ...(forwarded ? { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } : {}) },
  recorded: false,
}));

const initializeParams = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-11-25', '1999-01-01', ''), fc.integer(), fc.constant(null), hostileText),
      capabilities: fc.oneof(
        fc.constant({}),
        fc.constant('x'),
        fc.constant([1, 2]),
        fc.constant(null),
        fc.dictionary(fc.string({ maxLength: 6 }), hostileText, { maxKeys: 4 }),
      ),
      clientInfo: fc.oneof(fc.record({ name: hostileText, version: hostileText }), fc.constant('client'), fc.constant(null), fc.constant({})),
    },
    { requiredKeys: [] },
  ),
);

const initialize = fc.tuple(initializeParams, fc.integer({ min: 1, max: 1_000_000 })).map(([params, id]): FuzzRequest => ({
  op: 'mcp initialize',
  kind: 'edge',
  method: 'POST',
  path: '/mcp',
  query: '',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', ...(params === undefined ? {} : { params }) }),
  recorded: false,
}));

/** Edge requests; `key` authenticates the MCP handshakes (the registration and discovery routes take none). */
export function edgeRequests(key: string): fc.Arbitrary<FuzzRequest> {
  const withKey = initialize.map((r) => ({ ...r, headers: { ...r.headers, 'x-api-key': key } }));
  return fc.oneof({ weight: 3, arbitrary: registrations }, { weight: 1, arbitrary: discovery }, { weight: 2, arbitrary: withKey });
}

/** Some requests of every kind ask for their connection to be closed with the reply. */
export function withConnectionClose(requests: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(requests, fc.integer({ min: 0, max: 9 })).map(([r, n]) => (n === 0 ? { ...r, headers: { ...r.headers, connection: 'close' } } : r));
}

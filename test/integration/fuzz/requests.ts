import fc from 'fast-check';
import { edgeRequests, withConnectionClose } from './edge-requests.js';
import { dashboardRequests, oauthFormRequests, type DashboardSession } from './form-requests.js';
import { hostileValue, nestedText, serialise, validObject, validValue, type Schema, type ValueContext } from './schema-values.js';

/** One generated HTTP request. `path` and `query` are sent as they are (already encoded). */
export interface FuzzRequest {
  /** `METHOD /template` of the operation it was generated for, or `mcp <tool>`. */
  op: string;
  kind: 'valid' | 'mutated' | 'raw-body' | 'raw-path' | 'raw-query' | 'auth' | 'mcp' | 'mcp-raw' | 'edge';
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
  /** The path reaches the operation's route and the key is valid: a history row must exist. */
  recorded: boolean;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

interface Operation {
  method: string;
  template: string;
  params: Parameter[];
  body: Schema | null;
  queryKey: boolean;
  mcpTool: string | null;
}

/** Every operation of an OpenAPI 3.1 document (standard structure only). */
function operations(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = ((op.parameters ?? []) as Parameter[]).filter((p) => p.in === 'path' || p.in === 'query');
      out.push({
        method: method.toUpperCase(),
        template,
        params,
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        queryKey: ((op.security ?? []) as Record<string, unknown>[]).some((s) => Object.keys(s).some((k) => /query/i.test(k))),
        mcpTool: op['x-mcp-tool'] ?? null,
      });
    }
  }
  return out;
}

type Values = Record<string, unknown>;

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(asText).join(',');
  if (v !== null && typeof v === 'object') return serialise(v);
  return String(v);
}

/** Percent-encodes like encodeURIComponent; a lone surrogate goes as its (invalid UTF-8) WTF-8 bytes. */
function enc(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff)
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    return encodeURIComponent(ch);
  });
}

function fillPath(template: string, values: Values): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => enc(asText(values[name] ?? 'x')) || 'x');
}

function queryString(entries: [string, unknown][]): string {
  const parts: string[] = [];
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    // arrays go either as repeated keys or comma-joined, both of which clients send
    if (Array.isArray(v) && v.length && v.length % 2 === 0) for (const item of v) parts.push(`${enc(k)}=${enc(asText(item))}`);
    else parts.push(`${enc(k)}=${enc(asText(v))}`);
  }
  return parts.join('&');
}

interface Shape {
  pathValues: Values;
  queryValues: Values;
  bodyValue: unknown;
}

function validShape(op: Operation, ctx: ValueContext): fc.Arbitrary<Shape> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const paramArb = (ps: Parameter[]) =>
    fc.record(Object.fromEntries(ps.map((p) => [p.name, validValue(p.schema, ctx, p.name)])), {
      requiredKeys: ps.filter((p) => p.required).map((p) => p.name),
    }) as fc.Arbitrary<Values>;
  return fc.record({
    pathValues: paramArb(pathParams),
    queryValues: paramArb(queryParams),
    bodyValue: op.body ? (validObject(op.body, ctx) as fc.Arbitrary<unknown>) : fc.constant(undefined),
  });
}

/** Fields an operation takes, with their schema and where they go. */
interface Field {
  name: string;
  where: 'path' | 'query' | 'body';
  schema: Schema;
  required: boolean;
}

function fields(op: Operation): Field[] {
  const out: Field[] = op.params.map((p) => ({ name: p.name, where: p.in as 'path' | 'query', schema: p.schema, required: !!p.required }));
  const req = new Set(op.body?.required ?? []);
  for (const [name, schema] of Object.entries(op.body?.properties ?? {})) out.push({ name, where: 'body', schema, required: req.has(name) });
  return out;
}

type Mutation = (s: Shape) => Shape;

function mutations(op: Operation): fc.Arbitrary<Mutation> {
  const fs = fields(op);
  const where = (w: 'path' | 'query' | 'body') => (w === 'path' ? 'pathValues' : w === 'query' ? 'queryValues' : 'bodyValue');
  const set = (s: Shape, w: 'path' | 'query' | 'body', name: string, v: unknown): Shape => {
    const bag = { ...((s[where(w)] as Values | undefined) ?? {}) };
    if (v === undefined) delete bag[name];
    else bag[name] = v;
    return { ...s, [where(w)]: bag };
  };
  const options: fc.Arbitrary<Mutation>[] = [
    // an unknown field, sometimes hostile itself
    fc
      .tuple(
        fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'api_key', 'a\u0000b', 'x'.repeat(5000))),
        hostileValue({}),
      )
      .map(
        ([k, v]) =>
          (s: Shape) =>
            set(s, op.body ? 'body' : 'query', k, v),
      ),
  ];
  if (fs.length) {
    const field = fc.constantFrom(...fs);
    options.push(field.chain((f) => hostileValue(f.schema).map((v) => (s: Shape) => set(s, f.where, f.name, v))));
    options.push(field.map((f) => (s: Shape) => (f.where === 'path' ? set(s, f.where, f.name, '') : set(s, f.where, f.name, undefined))));
  }
  if (op.body)
    options.push(
      fc.constantFrom<Mutation>(
        (s) => ({ ...s, bodyValue: [s.bodyValue] }),
        (s) => ({ ...s, bodyValue: null }),
        (s) => ({ ...s, bodyValue: 'text' }),
      ),
    );
  return fc.oneof(...options);
}

const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'null',
  '0',
  '"string"',
  '[]',
  '\ufeff{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '{"a":"\\ud800"}',
  '{"a":1e999}',
  '{"a":-0}',
  '\u0000',
  '{"a":"' + 'x'.repeat(100) + '"' + ' '.repeat(20) + '}',
];

function rawBody(): fc.Arbitrary<{ body: string; contentType: string }> {
  return fc.oneof(
    fc.record({ body: fc.constantFrom(...RAW_BODIES), contentType: fc.constant('application/json') }),
    fc.record({
      body: fc
        .constantFrom(5_000, 20_000, 500_000)
        .chain((n) => fc.constantFrom(nestedText(n, 'array'), nestedText(n, 'object'), `{"a":${nestedText(n, 'array')}}`)),
      contentType: fc.constant('application/json'),
    }),
    fc.record({ body: fc.constant(`{"a":"${'y'.repeat(2_500_000)}"}`), contentType: fc.constant('application/json') }),
    fc.record({
      body: fc.string({ maxLength: 200 }),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'application/vnd.api+json',
        'multipart/form-data; boundary=x',
      ),
    }),
  );
}

const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%E0%A4%A',
  '%C0%AF',
  '..',
  '%2e%2e',
  '%2F',
  'a%00b',
  '%ff%fe',
  '\u00e9'.normalize(),
  'x'.repeat(10_000),
  '%u0000',
  ';a=b',
  '%0d%0a',
];
const RAW_QUERIES = [
  '=',
  '&&&',
  'a=%',
  'a=%zz',
  'a=%00',
  '%00=1',
  'a',
  'a[b]=c',
  'a[]=1&a[]=2',
  'q=%ff%fe',
  `${'p='.repeat(1)}${'x'.repeat(12_000)}`,
  Array.from({ length: 2_000 }, (_, i) => `k${i}=v`).join('&'),
];

function encodeSegment(s: string): string {
  return /^[\x21-\x7e]*$/.test(s) ? s : enc(s);
}

interface Generated {
  shape: Shape;
  kind: FuzzRequest['kind'];
  contentType?: string;
  rawBody?: string;
  rawSegment?: string;
  rawQuery?: string;
  auth: 'header' | 'bearer' | 'query' | 'none' | 'bad';
  /** An Idempotency-Key, reused across requests (same key, other body: a conflict) or malformed. */
  idempotencyKey?: string;
}

const IDEMPOTENCY_KEYS = ['fuzz-1', 'fuzz-1', 'fuzz-2', 'x'.repeat(200), 'x'.repeat(201), ' ', '\u00e9t\u00e9', 'a\tb'];

function restRequest(op: Operation, g: Generated, key: string): FuzzRequest {
  const { shape } = g;
  let path = fillPath(op.template, shape.pathValues);
  if (g.rawSegment !== undefined) {
    const segs = path.split('/');
    const at = op.params.some((p) => p.in === 'path') ? segs.findIndex((_s, i) => /\{/.test(op.template.split('/')[i] ?? '')) : segs.length - 1;
    segs[at < 0 ? segs.length - 1 : at] = encodeSegment(g.rawSegment);
    path = segs.join('/');
  }
  const headers: Record<string, string> = {};
  const queryEntries: [string, unknown][] = [];
  if (g.idempotencyKey !== undefined) headers['idempotency-key'] = g.idempotencyKey;
  if (g.auth === 'header') headers['x-api-key'] = key;
  else if (g.auth === 'bearer') headers.authorization = `Bearer ${key}`;
  else if (g.auth === 'query') queryEntries.push(['api_key', key]);
  else if (g.auth === 'bad') headers['x-api-key'] = 'sk_' + 'A'.repeat(32);
  const hasBody = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
  if (!hasBody || shape.bodyValue === undefined) queryEntries.push(...Object.entries(shape.queryValues));
  let body: string | undefined;
  if (hasBody) {
    if (g.rawBody !== undefined) body = g.rawBody;
    else if (shape.bodyValue !== undefined) body = serialise(shape.bodyValue);
    headers['content-type'] = g.contentType ?? 'application/json';
  }
  let query = queryString(queryEntries);
  if (g.rawQuery !== undefined) query = query ? `${query}&${g.rawQuery}` : g.rawQuery;
  // a generated extra `api_key` field beside the query key makes that key ambiguous, hence invalid
  const keyValid = g.auth === 'header' || g.auth === 'bearer' || (g.auth === 'query' && op.queryKey && !('api_key' in shape.queryValues));
  const urlTooLong = path.length + query.length > 8_000;
  return {
    op: `${op.method} ${op.template}`,
    kind: g.kind,
    method: op.method,
    path,
    query,
    headers,
    body,
    recorded: keyValid && g.rawSegment === undefined && !urlTooLong,
  };
}

function generated(op: Operation, ctx: ValueContext): fc.Arbitrary<Generated> {
  const base = validShape(op, ctx);
  const auth = fc.constantFrom<Generated['auth']>('header', 'header', 'header', 'header', 'bearer', ...(op.queryKey ? (['query'] as const) : []));
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ shape: base, kind: fc.constant('valid' as const), auth }) },
    {
      weight: 5,
      arbitrary: fc.record({
        shape: fc.tuple(base, fc.array(mutations(op), { minLength: 1, maxLength: 3 })).map(([s, ms]) => ms.reduce((acc, m) => m(acc), s)),
        kind: fc.constant('mutated' as const),
        auth,
      }),
    },
    ...(op.method === 'POST'
      ? [
          {
            weight: 1,
            arbitrary: fc
              .record({ shape: base, kind: fc.constant('raw-body' as const), auth, raw: rawBody() })
              .map(({ raw, ...g }) => ({ ...g, rawBody: raw.body, contentType: raw.contentType })),
          },
        ]
      : []),
    { weight: 1, arbitrary: fc.record({ shape: base, kind: fc.constant('raw-path' as const), auth, rawSegment: fc.constantFrom(...RAW_SEGMENTS) }) },
    { weight: 1, arbitrary: fc.record({ shape: base, kind: fc.constant('raw-query' as const), auth, rawQuery: fc.constantFrom(...RAW_QUERIES) }) },
    { weight: 1, arbitrary: fc.record({ shape: base, kind: fc.constant('auth' as const), auth: fc.constantFrom<Generated['auth']>('none', 'bad', 'query') }) },
  );
}

let rpcId = 0;

function mcpCall(tool: string, args: unknown, key: string, auth: Generated['auth']): FuzzRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (auth !== 'none') headers['x-api-key'] = auth === 'bad' ? 'sk_' + 'B'.repeat(32) : key;
  const body = serialise({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: tool, arguments: args } });
  return { op: `mcp ${tool}`, kind: 'mcp', method: 'POST', path: '/mcp', query: '', headers, body, recorded: false };
}

const MCP_RAW = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\\u0000","arguments":{}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_hotels","arguments":[]}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_hotels","arguments":"x"}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_hotels","arguments":{},"_meta":{"progressToken":{"a":[[[]]]}}}}',
  '{"jsonrpc":"2.0","id":1,"method":"nope/\\u0000"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"\\u0000"}}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}',
  '{"jsonrpc":"2.0","method":"tools/call"}',
  '[]',
  '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
  '{"jsonrpc":"1.0"}',
  '{',
  'null',
];

/** A REST request for some operation, an MCP call of an exposed tool, or a request at a public edge, the dashboard (in `dashboard`'s session) or an OAuth form. */
export function fuzzRequests(
  doc: { paths: Record<string, Record<string, any>> },
  ctx: ValueContext,
  key: string,
  dashboard: DashboardSession,
): fc.Arbitrary<FuzzRequest> {
  const ops = operations(doc);
  const idempotency = fc.option(fc.constantFrom(...IDEMPOTENCY_KEYS), { freq: 2 });
  const rest = fc
    .constantFrom(...ops)
    .chain((op) =>
      fc
        .tuple(generated(op, ctx), op.method === 'POST' ? idempotency : fc.constant(null))
        .map(([g, idem]) => restRequest(op, { ...g, idempotencyKey: idem ?? undefined }, key)),
    );
  const tools = ops.filter((o) => o.mcpTool);
  const mcpAuth = fc.constantFrom<Generated['auth']>('header', 'header', 'header', 'header', 'header', 'none', 'bad');
  const mcp = fc.constantFrom(...tools).chain((op) =>
    fc
      .tuple(generated(op, ctx), mcpAuth)
      .filter(([g]) => g.kind === 'valid' || g.kind === 'mutated')
      .map(([g, auth]) => mcpCall(op.mcpTool!, op.body ? g.shape.bodyValue : { ...g.shape.queryValues, ...g.shape.pathValues }, key, auth)),
  );
  const mcpRaw = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...MCP_RAW),
        fc
          .constantFrom(5_000, 100_000)
          .map((n) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${nestedText(n, 'array')}}}}`),
      ),
      mcpAuth,
    )
    .map(([body, auth]): FuzzRequest => ({ ...mcpCall('x', {}, key, auth), op: 'mcp raw', kind: 'mcp-raw', body }));
  return withConnectionClose(
    fc.oneof(
      { weight: 12, arbitrary: rest },
      ...(tools.length
        ? [
            { weight: 3, arbitrary: mcp },
            { weight: 1, arbitrary: mcpRaw },
          ]
        : []),
      { weight: 2, arbitrary: edgeRequests(key) },
      { weight: 2, arbitrary: dashboardRequests(dashboard) },
      { weight: 1, arbitrary: oauthFormRequests() },
    ),
  );
}

import { BODY_METHODS, type Tool } from '../../core/define-tool.js';
import { jsonSchema } from '../../core/json-schema.js';
import { exampleOf } from './openapi-examples.js';
import { ERROR_SCHEMAS, RESPONSE_HEADERS, responsesOf } from './openapi-responses.js';
import { openApiSchema } from './openapi-schema.js';
import { cacheText, withCacheMarker } from './openapi-cache.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; description?: string };

/** Descriptions of the tags the descriptors use; the lint test fails on a tag without one. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  account: 'Your plan, credits, ledger, usage and request history. Free.',
  hotels:
    'Hotel metasearch: resolve a property, search, details, offers by booking site, rooms, stay prices, 330-night calendars, stored rates, official sites and price comparison across sources.',
  jobs: 'Durable calendar batches: submit up to 50 calendars at once (Idempotency-Key), poll or receive a signed webhook.',
  flights: 'Flight metasearch: itineraries, return legs, booking options, location search and a price calendar.',
  ota: 'Single online travel agencies and the hostel and travel-review sources: rooms and prices of one property for one stay, and their property search.',
  rentals: 'Vacation rentals: search, property availability calendars and stay quotes.',
  compatible: 'Routes drop-in compatible with a popular search-results API: same paths, parameter names and answer envelope.',
  'compatible search': 'The compatible search API’s single entry point, GET /api/v1/search?engine=…, and its engine routes.',
  network: 'Job postings of the professional network: one posting, or a search.',
  careers: 'Company careers boards on the common applicant-tracking systems: detect the board of a careers page, list its open jobs.',
  video: 'Video platform: channels, videos, transcripts and search.',
  apps: 'App store: an app, its reviews and a search, per storefront country.',
  retail: 'Retail marketplace: product search and reviews.',
  trends: 'Search interest over time for a keyword.',
  'jobs-search': 'Job cards of the web search engine, rendered in a headless browser.',
  watches:
    'Rate monitoring: watches re-price a calendar, a stay or a comparison on a schedule, store what they see and send a signed watch.triggered event when their rule fires.',
  compsets:
    'Rate intelligence: competitor sets (your hotel and its competitors), rate shops over them (a price grid per date and length of stay, optionally per seller) and parity over a range (your official site against every agency), each run as a durable batch, JSON or CSV.',
  sources: 'Health of the upstream sources: recent outcomes per source, as recorded by the service.',
};

const pathNamesOf = (path: string) => [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);

const inputSchema = (tool: Tool) => openApiSchema(jsonSchema(tool.input, 'input')) as Schema;

function parameter(name: string, schema: Schema, where: 'path' | 'query', required: boolean) {
  const { description, ...rest } = schema;
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest };
}

/** The query of a dispatching route: its own fields, then every field of the operations it picks from. */
function dispatchedQuery(tool: Tool, own: Schema): Schema {
  const byName = new Map<string, { schema: Schema; engines: string[]; requiredBy: string[] }>();
  for (const [engine, target] of Object.entries(tool.engines ?? {})) {
    const schema = inputSchema(target);
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (name in (own.properties ?? {})) continue;
      const seen = byName.get(name) ?? { schema: prop, engines: [], requiredBy: [] };
      seen.engines.push(engine);
      if (schema.required?.includes(name)) seen.requiredBy.push(engine);
      byName.set(name, seen);
    }
  }
  const properties: Record<string, Schema> = { ...own.properties };
  for (const [name, { schema, engines, requiredBy }] of byName) {
    const all = engines.length === Object.keys(tool.engines ?? {}).length;
    const scope = all ? 'Every engine.' : `Engines: ${engines.join(', ')}.`;
    const need = requiredBy.length ? ` Required by ${requiredBy.join(', ')}.` : '';
    properties[name] = { ...schema, description: `${schema.description ? `${schema.description.replace(/\.?$/, '.')} ` : ''}${scope}${need}` };
  }
  return { ...own, properties };
}

function parameters(tool: Tool, path: string) {
  const pathNames = pathNamesOf(path);
  let schema = inputSchema(tool);
  if (tool.engines) schema = dispatchedQuery(tool, schema);
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {})
    .filter(([name]) => pathNames.includes(name) || !BODY_METHODS.includes(tool.method))
    .map(([name, s]) => (pathNames.includes(name) ? parameter(name, s, 'path', true) : parameter(name, s, 'query', required.has(name))));
  const headers = Object.entries(tool.headers).map(([name, h]) => ({ name, in: 'header', required: h.required, description: h.description, schema: h.schema }));
  return [...fields, ...headers];
}

function bodySchema(tool: Tool, path: string): Schema {
  const pathNames = pathNamesOf(path);
  const schema = inputSchema(tool);
  if (!pathNames.length) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([n]) => !pathNames.includes(n)));
  return { ...schema, properties, required: (schema.required ?? []).filter((n) => !pathNames.includes(n)) };
}

function costText(tool: Tool): string {
  if (!tool.metered) return tool.credits.note ? `${tool.credits.note[0].toUpperCase()}${tool.credits.note.slice(1)}.` : 'Free.';
  return `${tool.credits.base} credits${tool.credits.note ? ` (${tool.credits.note})` : ''}; failed and empty results are free.`;
}

/** The MCP tool and the cost, where a reader of the reference sees them: the description and badges. */
function describe(tool: Tool): { description: string; badges: { name: string }[] } {
  const lines = [tool.description, '', `**Cost:** ${costText(tool)}`];
  const cache = cacheText(tool);
  if (cache) lines.push('', cache);
  const badges = [{ name: tool.metered ? `${tool.credits.base}${tool.credits.note ? '+' : ''} credits` : tool.credits.note ? 'metered' : 'free' }];
  if (tool.mcp.expose) {
    lines.push('', `**MCP tool:** \`${tool.name}\` (POST /mcp, tools/call).`);
    badges.push({ name: `MCP: ${tool.name}` });
  }
  return { description: lines.join('\n'), badges };
}

function operation(tool: Tool, path: string) {
  const { description, badges } = describe(tool);
  const output = withCacheMarker(tool, openApiSchema(jsonSchema(tool.output, 'output')) as Schema);
  const example = exampleOf(tool, { input: inputSchema(tool), output });
  const op: Record<string, unknown> = {
    operationId: path === tool.path ? tool.name : `${tool.name}_${tool.aliases.indexOf(path) + 1}`,
    summary: tool.title,
    description:
      example.source === 'recorded'
        ? description
        : `${description}\n\nThe example answer is schematic: no recorded call of this operation, so it states nothing (null, empty).`,
    tags: tool.tags,
    'x-credits': tool.credits.base,
    ...(tool.credits.note ? { 'x-credits-note': tool.credits.note } : {}),
    ...(tool.mcp.expose ? { 'x-mcp-tool': tool.name } : {}),
    'x-badges': badges,
    security: tool.queryKey ? [{ ApiKeyHeader: [] }, { Bearer: [] }, { ApiKeyQuery: [] }] : [{ ApiKeyHeader: [] }, { Bearer: [] }],
    responses: responsesOf(tool, {
      description: tool.status === 202 ? 'Accepted: the work continues in the background.' : 'The result.',
      schema: output,
      example: example.output,
    }),
  };
  const params = parameters(tool, path);
  if (params.length) op.parameters = params;
  const input = (example.input ?? {}) as Record<string, unknown>;
  // a dispatching route's example is the raw query of one engine: only its own fields are typed as documented
  const own = inputSchema(tool).properties ?? {};
  for (const p of params as { name: string; in: string; schema?: { type?: unknown }; example?: unknown }[]) {
    if (p.in !== 'header' && p.name in own && input[p.name] !== undefined) p.example = asDocumentedType(input[p.name], p.schema?.type);
  }
  if (BODY_METHODS.includes(tool.method)) {
    const body = bodySchema(tool, path);
    const media: Record<string, unknown> = { schema: body };
    if (example.input !== undefined) {
      const pathNames = pathNamesOf(path);
      media.example = Object.fromEntries(Object.entries(input).filter(([k]) => !pathNames.includes(k)));
    }
    op.requestBody = { required: true, content: { 'application/json': media } };
  }
  return op;
}

/** A raw query value ("true", "3") as the type its parameter documents, as a client would write it. */
function asDocumentedType(value: unknown, type: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** OpenAPI 3.1, generated from the same descriptors that mount the routes; `withServer` adds where it is served. */
export function openApiDocument(tools: Tool[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of tools) {
    for (const path of [tool.path, ...tool.aliases]) {
      paths[path] = { ...(paths[path] ?? {}), [tool.method.toLowerCase()]: operation(tool, path) };
    }
  }
  const tags = [...new Set(tools.flatMap((t) => t.tags))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hotel-rate and web-data API',
      version: '1.0.0',
      summary: 'Live hotel rates and web data as JSON with per-price provenance.',
      description: [
        'Live hotel rates and web data as JSON with per-price provenance. Every price carries where it came from; what an upstream does not state is null or absent, never filled in.',
        '',
        'Send your key as `x-api-key: sk_…` (or `Authorization: Bearer sk_…`). Errors are `{"detail": …}`: a string, or for validation failures (422) an array of `{type, loc, msg, input}`; the compatible search family (/api/v1/search, /v1/serp/*) answers invalid input with 400 instead of 422 and adds `error`, the message as one string. Every response carries `x-request-id`; metered responses carry `x-credits-charged` and `x-credits-remaining`.',
        '',
        'The operations marked with an MCP tool are also served to LLM agents at `POST /mcp` (Model Context Protocol, Streamable HTTP).',
      ].join('\n'),
      contact: { name: 'API support' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [],
    tags,
    paths,
    components: {
      schemas: ERROR_SCHEMAS,
      headers: RESPONSE_HEADERS,
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your key, sk_… (recommended).' },
        Bearer: { type: 'http', scheme: 'bearer', description: 'The same key as a Bearer token: Authorization: Bearer sk_….' },
        ApiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'The key in the query string: accepted on the compatible search API’s GET route only.',
        },
      },
    },
  };
}

/** The document as served: `servers` is the configured public URL, or the origin the request came to. */
export function withServer(doc: Record<string, unknown>, url: string): Record<string, unknown> {
  return { ...doc, servers: [{ url, description: 'This service' }] };
}

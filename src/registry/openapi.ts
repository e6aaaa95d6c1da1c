import type { Tool } from './define-tool.js';
import { jsonSchema } from './json-schema.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['type', 'loc', 'msg', 'input'],
            properties: {
              type: { type: 'string' },
              loc: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
              msg: { type: 'string' },
              input: {},
            },
          },
        },
      ],
    },
  },
};

const ERRORS: Record<string, string> = {
  '401': 'missing or invalid API key',
  '422': 'validation failed',
  '429': 'rate limit or plan concurrency reached',
};

function costText(tool: Tool): string {
  if (!tool.metered) return 'Free.';
  return `Cost: ${tool.credits.base} credits${tool.credits.note ? ` (${tool.credits.note})` : ''}; failed and empty results are free.`;
}

function parameters(tool: Tool, path: string) {
  const pathNames = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
  const schema = jsonSchema(tool.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const isQuery = tool.method !== 'POST';
  return Object.entries(props)
    .filter(([name]) => pathNames.includes(name) || isQuery)
    .map(([name, s]) => ({
      name,
      in: pathNames.includes(name) ? 'path' : 'query',
      required: pathNames.includes(name) || required.has(name),
      schema: s,
    }));
}

function bodySchema(tool: Tool, path: string): Record<string, unknown> {
  const pathNames = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
  const schema = jsonSchema(tool.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  if (!pathNames.length) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([n]) => !pathNames.includes(n)));
  return { ...schema, properties, required: (schema.required ?? []).filter((n) => !pathNames.includes(n)) };
}

/** OpenAPI 3.1, generated from the same descriptors that mount the routes. */
export function openApiDocument(tools: Tool[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of tools) {
    for (const path of [tool.path, ...tool.aliases]) {
      const op: Record<string, unknown> = {
        operationId: path === tool.path ? tool.name : `${tool.name}_${tool.aliases.indexOf(path) + 1}`,
        summary: tool.title,
        description: `${tool.description}\n\n${costText(tool)}`,
        tags: tool.tags,
        'x-credits': tool.credits.base,
        ...(tool.mcp.expose ? { 'x-mcp-tool': tool.name } : {}),
        parameters: parameters(tool, path),
        security: tool.queryKey ? [{ ApiKeyHeader: [] }, { Bearer: [] }, { ApiKeyQuery: [] }] : [{ ApiKeyHeader: [] }, { Bearer: [] }],
        responses: {
          [String(tool.status)]: {
            description: 'success',
            content: { 'application/json': { schema: jsonSchema(tool.output, 'output') } },
          },
          ...Object.fromEntries(
            Object.entries(ERRORS).map(([code, description]) => [code, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
          ),
        },
      };
      if (tool.method === 'POST') {
        op.requestBody = { required: true, content: { 'application/json': { schema: bodySchema(tool, path) } } };
      }
      paths[path] = { ...(paths[path] ?? {}), [tool.method.toLowerCase()]: op };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hotel-rate and web-data API',
      version: '1.0.0',
      description: 'Live hotel rates and web data as JSON with per-price provenance. Every operation here is also described to MCP clients at POST /mcp.',
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        Bearer: { type: 'http', scheme: 'bearer' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
    },
  };
}

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { withSignal, type AppDeps } from '../deps.js';
import { toApiError } from '../platform/errors.js';
import type { AuthedKey } from '../platform/keys.js';
import type { Tool } from './define-tool.js';
import { recordCall } from '../ops/ops.js';
import { failed, finishCall, invokeTool, newMeter } from './invoke.js';
import { jsonSchema } from './json-schema.js';

export const MCP_SERVER_INFO = { name: 'hotelrates', version: '1.0.0' };

function exposed(tools: Tool[]): Tool[] {
  return tools.filter((t) => t.mcp.expose);
}

function schemaCache(tools: Tool[]) {
  return exposed(tools).map((t) => ({
    name: t.name,
    title: t.mcp.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input') as { type: 'object' },
    outputSchema: jsonSchema(t.output, 'output') as { type: 'object' },
    annotations: { title: t.mcp.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  }));
}

const listings = new WeakMap<Tool[], ReturnType<typeof schemaCache>>();

/**
 * A new MCP server for one authenticated caller (stateless: one per HTTP request).
 * Tools come from the registry and run through the same invoke path as REST.
 */
export function createMcpServer(deps: AppDeps, key: AuthedKey, nextRequestId: () => string): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  let listing = listings.get(deps.tools);
  if (!listing) listings.set(deps.tools, (listing = schemaCache(deps.tools)));
  const tools = listing;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = exposed(deps.tools).find((t) => t.name === request.params.name);
    const id = nextRequestId();
    const started = performance.now();
    const meter = newMeter();
    let result: CallToolResult;
    if (!tool) {
      result = { isError: true, content: [{ type: 'text', text: `unknown tool: ${request.params.name}` }] };
    } else {
      try {
        const output = (await invokeTool(tool, request.params.arguments ?? {}, () => 'body', { deps: withSignal(deps, extra.signal), requestId: id, key, headers: {} }, meter)) as Record<string, unknown>;
        result = { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
      } catch (err) {
        const api = toApiError(err);
        if (api.status === 500) deps.log.error({ err, requestId: id }, 'unhandled error in MCP tool');
        failed(meter);
        const text = typeof api.detail === 'string' ? api.detail : JSON.stringify(api.detail);
        result = { isError: true, content: [{ type: 'text', text }], _meta: { status: api.status, request_id: id } };
      }
    }
    const status = result.isError ? Number(result._meta?.status ?? 404) : 200;
    try {
      await finishCall(deps, meter, { id, key_id: key.id, method: 'MCP', path: request.params.name, status, duration_ms: performance.now() - started, response_bytes: Buffer.byteLength((result.content[0] as { text: string }).text) }); // the text copy: the result serialised once
    } catch (err) {
      if (result.isError) deps.log.warn({ err, requestId: id }, 'request history write failed');
      else {
        const api = toApiError(err);
        failed(meter);
        result = { isError: true, content: [{ type: 'text', text: String(api.detail) }], _meta: { status: api.status, request_id: id } };
      }
    }
    if (!result.isError) result._meta = { request_id: id, credits_charged: meter.charged, credits_remaining: meter.remaining };
    recordCall(deps.ops, { operation: tool?.name ?? 'unknown', transport: 'mcp', status: result.isError ? Number(result._meta?.status ?? 404) : 200, ms: performance.now() - started, credits: meter.charged });
    return result;
  });
  return server;
}

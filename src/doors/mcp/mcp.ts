import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type McpServerFactory,
  type ServerContext,
  type Tool as McpTool,
} from '@modelcontextprotocol/server';
import type { ServiceDeps } from '../../core/service-deps.js';
import { toApiError } from '../../domain/errors.js';
import type { Tool } from '../../core/define-tool.js';
import type { Meter } from '../../core/invoke.js';
import { runCall, type CallDoor, type CommitCall } from '../../core/call.js';
import { agentAnswer, checkMaximums, splitArguments, textBlock } from './mcp-answer.js';
import { mcpDescription, mcpInputSchema, mcpOutputSchema, mcpToolMeta } from './mcp-listing.js';
import { MCP_INSTRUCTIONS } from './mcp-instructions.js';
import type { McpCallContext, McpCaller } from './mcp-caller.js';
import { serveTaskMethods, startTask, TASKS_CAPABILITY } from './mcp-tasks.js';
import { appResources, readAppResource } from './mcp-apps.js';
import { enabledToolSets, MCP_TOOL_SETS, type McpToolSet } from '../../domain/mcp-tool-sets.js';
import type { AuthedKey } from '../../platform/keys.js';

export type { McpCallContext, McpCaller } from './mcp-caller.js';

const MCP_SERVER_INFO = { name: 'hotelrates', version: '1.0.0' };

/** The default listing, the same for every caller: clients and shared caches may keep it an hour. */
const LIST_CACHE = { ttlMs: 3_600_000, cacheScope: 'public' } as const;
/** A listing with a key's own opt-in sets: only that client may keep it (a shared cache would hand it to another key). */
const KEY_LIST_CACHE = { ttlMs: 3_600_000, cacheScope: 'private' } as const;

/** Tools with their listing. */
export interface McpToolGroup {
  listing: McpTool[];
  byName: Map<string, Tool>;
}

/**
 * The default set (the 18 read-only tools every caller lists) and each opt-in set
 * (src/domain/mcp-tool-sets.ts), built once per process from the registry.
 */
export interface McpToolTable extends McpToolGroup {
  sets: Map<McpToolSet, McpToolGroup>;
}

/** The cache hints of what every caller is answered alike: the listings, and the apps' pages (they change with a release). */
const PUBLIC_LISTS = ['tools/list', 'server/discover', 'resources/list', 'resources/templates/list', 'resources/read'] as const;

/** A default-set tool only reads; it reads third-party sites (the balance: the account's ledger, which calls elsewhere change). */
const DEFAULT_HINTS = { readOnly: true, destructive: false, openWorld: true };

function listed(t: Tool): McpTool {
  // a metered call charges again when repeated: only a free call changes nothing the second time
  const hints = t.mcp.hints ?? { ...DEFAULT_HINTS, idempotent: !t.metered };
  return {
    name: t.name,
    title: t.mcp.title,
    description: mcpDescription(t),
    inputSchema: mcpInputSchema(t) as McpTool['inputSchema'],
    outputSchema: mcpOutputSchema(t),
    _meta: mcpToolMeta(t),
    annotations: {
      title: t.mcp.title,
      readOnlyHint: hints.readOnly,
      ...(hints.readOnly ? {} : { destructiveHint: hints.destructive }),
      openWorldHint: hints.openWorld,
      idempotentHint: hints.idempotent,
    },
  };
}

/** The opt-in sets' tools, listed (what the build's prebuilt default listing leaves out). */
export function toolSets(tools: Tool[]): Map<McpToolSet, McpToolGroup> {
  const sets = new Map<McpToolSet, McpToolGroup>();
  for (const set of MCP_TOOL_SETS) {
    const members = tools.filter((t) => t.mcp.set === set);
    if (members.length) sets.set(set, { listing: members.map(listed), byName: new Map(members.map((t) => [t.name, t])) });
  }
  return sets;
}

export function buildToolTable(tools: Tool[]): McpToolTable {
  const exposed = tools.filter((t) => t.mcp.expose);
  return { byName: new Map(exposed.map((t) => [t.name, t])), listing: exposed.map(listed), sets: toolSets(tools) };
}

/** The tool a caller with `sets` may call by that name: the default set's, or one of its opt-in sets'. */
function toolFor(table: McpToolTable, name: string, sets: readonly McpToolSet[]): Tool | undefined {
  return table.byName.get(name) ?? sets.map((s) => table.sets.get(s)?.byName.get(name)).find(Boolean);
}

/**
 * Writes a finished call's charge and history row; an MCP task's worker passes its own, which commits
 * them with the task's result (`final()`, the result as answered).
 */
export type SettleCall = (commit: CommitCall, final: () => CallToolResult) => Promise<void>;

/**
 * One tool call through the lifecycle every REST call takes (call.ts: rate limit, validation,
 * credits, history). A failure is an `isError` result carrying the REST error's detail; a call
 * whose client hung up is recorded as 499 and charged nothing.
 */
export async function callTool(
  deps: ServiceDeps,
  tool: Tool,
  args: unknown,
  caller: McpCaller,
  signal: AbortSignal,
  settle?: SettleCall,
): Promise<CallToolResult> {
  const id = caller.nextRequestId();
  const given = (args && typeof args === 'object' && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
  let view: Record<string, unknown> = {};
  let input: unknown;
  const door: CallDoor<CallToolResult> = {
    transport: 'mcp',
    route: { method: 'MCP', path: tool.name },
    status: 200,
    answer: (output) => toolResult(tool, agentAnswer(tool, output, view, input)),
    failure: (api, err) => {
      if (api.status === 500) deps.log.error({ err, requestId: id }, 'unhandled error in MCP tool');
      return { status: api.status, body: errorResult(api.detail, api.status, id) };
    },
    bytes: resultBytes,
    settle: settle && ((commit, reply, meter) => settle(commit, () => withCallMeta(reply.body, id, meter))),
  };
  const checkInput = (valid: unknown) => {
    checkMaximums(tool, valid);
    input = valid;
  };
  const admit = () => ({ key: caller.key, requestId: id, headers: {}, origin: caller.origin });
  const read = () => {
    const split = splitArguments(tool, given);
    view = split.view;
    return { ...tool.mcp.defaults, ...split.rest };
  };
  const { body, meter } = await runCall(door, { deps, tool, signal, admit, input: read, checkInput });
  return withCallMeta(body, id, meter);
}

function toolResult(tool: Tool, answer: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: textBlock(tool, answer) }], structuredContent: answer };
}

/** What goes out: the text block and the structured result beside it. */
function resultBytes(result: CallToolResult): number {
  const text = Buffer.byteLength((result.content[0] as { text: string }).text);
  return text + (result.structuredContent ? Buffer.byteLength(JSON.stringify(result.structuredContent)) : 0);
}

/**
 * A successful result carries its request id and credits in `_meta`; a cached tool's also whether it
 * came from the result cache (`cached`, free) and, when it did, when it was fetched (`observed_at`).
 */
function withCallMeta(result: CallToolResult, id: string, meter: Meter): CallToolResult {
  if (result.isError) return result;
  const cache = meter.cache ? { cached: meter.cache.hit, ...(meter.cache.hit ? { observed_at: meter.cache.observedAt.toISOString() } : {}) } : {};
  return { ...result, _meta: { request_id: id, credits_charged: meter.charged, credits_remaining: meter.remaining, ...cache } };
}

function errorResult(detail: unknown, status: number, requestId: string | null): CallToolResult {
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  return { isError: true, content: [{ type: 'text', text }], _meta: requestId ? { status, request_id: requestId } : { status } };
}

/** A name that is not one of the tools is a protocol error (-32602), never a call, a charge or a history row. */
function unknownTool(name: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${String(name).slice(0, 100)}`);
}

/** What a tool call runs with: the process's dependencies and the caller. */
/**
 * The SDK's serving entries (HTTP: one per request; stdio: one per connection) each take a fresh
 * protocol `Server` from this factory. What is expensive to build, the tool table and its schemas,
 * is built once per process and shared; the per-request `Server` only holds the handlers (on the
 * 2026-07-28 era also those of the tasks extension, mcp-tasks.ts).
 * `resolve` gives a call its dependencies and caller from the serving context (HTTP: the auth in
 * front of the handler; stdio: the process's key, once the database is up). `onList` lets a
 * lazily started server warm up when a client lists the tools.
 * Opt-in tool sets: `settingSets` (MCP_TOOL_SETS) for every caller, plus the calling key's own;
 * `listingKey` gives the key a listing is made for where it is known without waiting (HTTP); stdio
 * lists the setting's sets (its key is looked up once the database is up) and calls with both.
 */
export function mcpServerFactory(
  table: McpToolTable,
  resolve: (ctx: ServerContext) => McpCallContext | Promise<McpCallContext>,
  opts: { onList?: () => void; settingSets?: readonly McpToolSet[]; listingKey?: (ctx: ServerContext) => AuthedKey | undefined } = {},
): McpServerFactory {
  const settingSets = opts.settingSets ?? [];
  const listingOf = (sets: readonly McpToolSet[]) => [...table.listing, ...sets.flatMap((s) => table.sets.get(s)?.listing ?? [])];
  const shared = listingOf(enabledToolSets(settingSets, []));
  // the MCP Apps' pages (mcp-apps.ts): static resources, no templates
  const resources = appResources(table.byName.values());
  return ({ era }) => {
    const modern = era === 'modern';
    const server = new Server(MCP_SERVER_INFO, {
      capabilities: { tools: {}, resources: {}, ...(modern ? TASKS_CAPABILITY : {}) },
      instructions: MCP_INSTRUCTIONS,
      cacheHints: Object.fromEntries(PUBLIC_LISTS.map((m) => [m, LIST_CACHE])),
    });
    server.setRequestHandler('tools/list', (_request, ctx) => {
      opts.onList?.();
      const sets = enabledToolSets(settingSets, opts.listingKey?.(ctx)?.mcp_tool_sets);
      if (sets.length === enabledToolSets(settingSets, []).length) return { tools: shared };
      // this key's own listing: never public (the 2026 codec takes the result's own hint over the server's)
      return { tools: listingOf(sets), ...(modern ? KEY_LIST_CACHE : {}) };
    });
    server.setRequestHandler('resources/list', () => ({ resources }));
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
    server.setRequestHandler('resources/read', (request) => readAppResource(resources, request.params.uri));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const name = request.params.name;
      const inSets = !table.byName.has(name) && [...table.sets.values()].some((g) => g.byName.has(name));
      if (!table.byName.has(name) && !inSets) throw unknownTool(name);
      let call: McpCallContext;
      try {
        call = await resolve(ctx);
      } catch (err) {
        // the caller could not be established (stdio: database down, key refused): nothing ran, nothing is recorded
        const api = toApiError(err);
        return errorResult(api.detail, api.status, null);
      }
      // an opt-in set's tool is unknown to a caller without that set, as for any other name
      const tool = toolFor(table, name, enabledToolSets(settingSets, call.caller.key.mcp_tool_sets));
      if (!tool) throw unknownTool(name);
      // the tasks extension (2026-07-28 only): a long call may be answered with a task instead
      const decided = modern ? await startTask(call, tool, request.params.arguments, ctx) : { caller: call.caller };
      if ('task' in decided) return decided.task as never;
      return callTool(call.deps, tool, request.params.arguments, decided.caller, ctx.mcpReq.signal);
    });
    if (modern) serveTaskMethods(server, resolve);
    return server;
  };
}

import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { cancelTask, createTask, findTask, type TaskRecord } from '../../jobs/mcp-task-store.js';
import { expiryBounds } from '../../jobs/run-expiry.js';
import { Limited } from '../../domain/errors.js';
import { takeRateLimit } from '../../platform/rate-limit.js';
import type { Tool } from '../../core/define-tool.js';
import { asksZeroRetention } from '../../core/invoke.js';
import { checkMaximums, splitArguments } from './mcp-answer.js';
import type { McpCallContext, McpCaller } from './mcp-caller.js';
import { parseInput } from '../../core/validation.js';

/*
 * The `io.modelcontextprotocol/tasks` extension of the 2026-07-28 revision (SEP-2663), server side.
 * Task creation is server-directed: a tools/call whose request declares the extension in its
 * per-request client capabilities, to a tool with a task rule that picks this input, is answered
 * with a CreateTaskResult once the task and its queue entry are committed; a worker runs the call
 * (src/workers/mcp-task-worker.ts). Anything else gets the blocking result. tasks/get, tasks/update
 * and tasks/cancel need the extension on their own request (-32021 otherwise) and see only the
 * calling key's tasks (another key's task is not found, -32602). 2025-era connections get no
 * tasks: the core tasks of 2025-11-25 were experimental and are removed by this extension.
 */

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Merged into the server capabilities of modern-era servers (server/discover). */
export const TASKS_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } };

const TaskIdParams = z.looseObject({ taskId: z.string() });

/** Whether this request declares the extension in its `_meta` client capabilities. */
function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return typeof caps?.extensions?.[TASKS_EXTENSION] === 'object';
}

function requireTasks(ctx: ServerContext): void {
  if (!declaresTasks(ctx)) {
    throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }, 'Missing required client capability');
  }
}

const notFound = (what: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to ${what} task: Task not found`);

/** The Task as the wire carries it; `detailed` inlines the result or error of a terminal task (tasks/get). */
function taskView(t: TaskRecord, detailed: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    taskId: t.id,
    status: t.status,
    ...(t.status_message ? { statusMessage: t.status_message } : {}),
    createdAt: t.created_at.toISOString(),
    lastUpdatedAt: t.updated_at.toISOString(),
    ttlMs: Number(t.ttl_ms),
    pollIntervalMs: t.poll_interval_ms,
  };
  if (detailed && t.status === 'completed') view.result = t.result;
  if (detailed && t.status === 'failed') view.error = t.error;
  return view;
}

export type TaskDecision = { task: Record<string, unknown> } | { caller: McpCaller };

/**
 * A task for this call, when the client declared the extension and the tool's rule picks the input
 * (never for zero_retention calls: a task keeps its arguments and result); otherwise the caller the
 * blocking call runs as. Invalid input is left to the blocking call, which answers it as always. The
 * call takes its rate-limit slot here; a refused one is answered by the blocking path as a 429.
 */
export async function startTask(call: McpCallContext, tool: Tool, args: unknown, ctx: ServerContext): Promise<TaskDecision> {
  const { deps, caller } = call;
  const rule = tool.mcp.task;
  if (!rule || !deps.queue.running || !declaresTasks(ctx) || caller.key.admitted === false) return { caller };
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { caller };
  let input: unknown;
  try {
    // the MCP tool's own arguments (its view's) are not the operation's: the task keeps them for the worker's call
    input = parseInput(tool.input, { ...tool.mcp.defaults, ...splitArguments(tool, args as Record<string, unknown>).rest }, () => 'body');
    checkMaximums(tool, input);
  } catch {
    return { caller };
  }
  if (asksZeroRetention(input) || !rule.when(input)) return { caller };
  const { key } = caller;
  if (key.admitted === undefined) {
    try {
      await takeRateLimit(deps.sql, key.rateBucket ?? key.id, key.rate_limit_per_min);
    } catch (err) {
      if (err instanceof Limited) return { caller: { ...caller, key: { ...key, admitted: false } } };
      throw err;
    }
  }
  const requestId = caller.nextRequestId();
  let task: TaskRecord;
  try {
    task = await createTask(deps.sql, deps.queue.boss(), {
      key,
      requestId,
      tool: tool.name,
      arguments: args as Record<string, unknown>,
      expectedSeconds: rule.seconds(input),
      expiry: expiryBounds(deps.config),
    });
  } catch (err) {
    // the blocking call answers instead (and reports the fault the way every call does)
    deps.log.warn({ err, requestId }, 'MCP task could not be created');
    return { caller: { ...caller, key: { ...key, admitted: true }, nextRequestId: () => requestId } };
  }
  deps.queue.wake();
  return { task: { resultType: 'task', ...taskView(task, false), _meta: { request_id: requestId } } };
}

/** tasks/get, tasks/update and tasks/cancel on a modern-era server. */
export function serveTaskMethods(server: Server, resolve: (ctx: ServerContext) => McpCallContext | Promise<McpCallContext>): void {
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    requireTasks(ctx);
    const { deps, caller } = await resolve(ctx);
    const task = await findTask(deps.sql, caller.key, params.taskId);
    if (!task) throw notFound('retrieve');
    return taskView(task, true);
  });
  // no tool of ours asks for input while it runs: an update is acknowledged and changes nothing
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async (params, ctx) => {
    requireTasks(ctx);
    const { deps, caller } = await resolve(ctx);
    if (!(await findTask(deps.sql, caller.key, params.taskId))) throw notFound('update');
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    requireTasks(ctx);
    const { deps, caller } = await resolve(ctx);
    if (!(await cancelTask(deps.sql, deps.queue, caller.key, params.taskId))) throw notFound('cancel');
    return {};
  });
}

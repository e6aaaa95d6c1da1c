import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { callTool, type McpCaller } from '../doors/mcp/mcp.js';
import { ensureQueue } from '../jobs/queue.js';
import {
  claimTask,
  completeTask,
  failTask,
  MAX_TASK_ATTEMPTS,
  MCP_TASK_QUEUE,
  pruneTasks,
  stillWorking,
  taskStatus,
  TASK_CANCEL_CHANNEL,
} from '../jobs/mcp-task-store.js';

/*
 * Runs MCP tasks from their queue, in the API process or in `npm run worker` processes alike. A task
 * is the tool call itself, made through the same path as a blocking call (callTool: validation,
 * credits, history) as the key that made it; its charge, its history row and its result commit in
 * one transaction, guarded by the task still working, so a run replayed after a crash (the queue
 * entry expires and is handed out again) or a cancellation that raced the end charges nothing twice.
 */

const PRUNE_EVERY_MS = 15 * 60 * 1000;

export interface McpTaskWorker {
  /** Wakes this process's idle task workers (a task was just queued here). */
  wake(): void;
  stop(): Promise<void>;
}

export async function startMcpTaskWorker(deps: ServiceDeps, boss: PgBoss): Promise<McpTaskWorker> {
  await ensureQueue(boss, MCP_TASK_QUEUE);
  const running = new Map<string, AbortController>();
  // tasks/cancel, answered by any process, reaches the one running the task
  const listener = await deps.sql.listen(TASK_CANCEL_CHANNEL, (taskId) => running.get(taskId)?.abort());
  const ids: string[] = [];
  for (let i = 0; i < deps.config.WORKER_CONCURRENCY; i++) {
    const id: string = await boss.work<{ task_id: string }>(MCP_TASK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      try {
        await runTask(deps, job.data.task_id, running);
      } finally {
        boss.notifyWorker(id);
      }
    });
    ids.push(id);
  }
  const prune = () => pruneTasks(deps.sql).catch((err) => deps.log.warn({ err }, 'pruning expired MCP tasks failed'));
  await prune();
  const timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
  timer.unref();
  return {
    wake: () => ids.forEach((id) => boss.notifyWorker(id)),
    async stop() {
      clearInterval(timer);
      // running tasks stop at once and stay working: their queue entries run them again elsewhere
      for (const c of running.values()) c.abort();
      await listener.unlisten().catch(() => undefined);
    },
  };
}

async function runTask(deps: ServiceDeps, taskId: string, running: Map<string, AbortController>): Promise<void> {
  const task = await claimTask(deps.sql, taskId);
  if (!task) return; // ended meanwhile (cancelled, or a replay after the commit)
  if (task.attempts > MAX_TASK_ATTEMPTS) {
    return failTask(deps.sql, task, `the task was interrupted ${MAX_TASK_ATTEMPTS} times before it could finish`);
  }
  const tool = deps.tools.find((t) => t.name === task.tool && t.mcp.expose);
  if (!tool) return failTask(deps.sql, task, `the tool ${task.tool} is no longer served`);
  // an earlier run that died may still hold the call's credit reservation (enforced credits)
  if (task.attempts > 1) await deps.credits.release(task.request_id);
  const controller = new AbortController();
  running.set(task.id, controller);
  // the call was admitted (rate limit) when the task was created
  const caller: McpCaller = { key: { ...task.caller, admitted: true }, nextRequestId: () => task.request_id };
  let tried = false;
  try {
    await callTool(deps, tool, task.arguments, caller, controller.signal, async (commit, final) => {
      // stopped by tasks/cancel (which recorded the call) or by this process shutting down (the task
      // stays working and runs again): either way this run's outcome is not the task's. A result
      // whose commit failed is not settled as a failure either: the queue runs the task again.
      if (controller.signal.aborted || tried) return;
      tried = true;
      await deps.sql.begin(async (tx) => {
        if (!(await stillWorking(tx, task.id))) return; // cancelled while it ran: nothing is charged
        await commit(tx);
        // the result as the 2026-07-28 wire carries a tool call's answer
        await completeTask(tx, task.id, { ...final(), resultType: 'complete' });
      });
    });
  } finally {
    running.delete(task.id);
  }
  // a commit that failed (database trouble) leaves the task working: the queue runs it again
  if ((await taskStatus(deps.sql, task.id)) === 'working') throw new Error(`MCP task ${task.id} did not commit; it runs again`);
}

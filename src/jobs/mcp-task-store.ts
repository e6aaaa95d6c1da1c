import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Db, Sql } from '../db/client.js';
import { settle } from '../platform/credits.js';
import { newId } from '../domain/ids.js';
import type { AuthedKey } from '../platform/keys.js';
import { bossDb } from './calendar-jobs.js';
import type { JobQueue } from './job-queue.js';
import { runExpirySeconds, type ExpiryBounds } from './run-expiry.js';

/*
 * The one module that writes and reads MCP task records (src/doors/mcp/mcp-tasks.ts answers the
 * protocol, src/workers/mcp-task-worker.ts runs them). Every read is of one key inside its account.
 *
 * Transitions:
 *   working → completed  the worker committed the tool's result with its charge and history row
 *   working → cancelled  tasks/cancel (the queue entry is cancelled, a running worker aborted)
 *   working → failed     the worker died MAX_TASK_ATTEMPTS times on it, or the tool is gone
 * A terminal task never changes again; every transition is guarded by `status = 'working'`.
 */

export const MCP_TASK_QUEUE = 'mcp-task';
/** Tasks are kept this long after creation, then forgotten (tasks/get answers not found). */
const TASK_TTL_MS = 24 * 3600 * 1000;
/** A task whose worker died this many times fails instead of running again. */
export const MAX_TASK_ATTEMPTS = 3;

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  id: string;
  account_id: string;
  key_id: string;
  request_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: AuthedKey;
  queue_job_id: string;
  status: TaskStatus;
  status_message: string | null;
  result: Record<string, unknown> | null;
  error: { code: number; message: string } | null;
  attempts: number;
  poll_interval_ms: number;
  ttl_ms: number;
  created_at: Date;
  updated_at: Date;
}

export interface NewTask {
  key: AuthedKey;
  requestId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** Expected run time: the queue entry expires (and a crashed run is retried) after twice this, within `expiry`. */
  expectedSeconds: number;
  expiry: ExpiryBounds;
}

/** How often a client should ask: a tenth of the expected time, within 0.5-5 s. */
function pollIntervalMs(expectedSeconds: number): number {
  return Math.round(Math.min(5000, Math.max(500, expectedSeconds * 100)));
}

/** Writes the task and its queue entry in one transaction: when this returns, tasks/get finds it. */
export async function createTask(sql: Sql, boss: PgBoss, t: NewTask): Promise<TaskRecord> {
  const queueJobId = randomUUID();
  const { admitted: _admitted, ...caller } = t.key;
  return sql.begin(async (tx) => {
    const [row] = await tx<
      TaskRecord[]
    >`INSERT INTO mcp_tasks (id, account_id, key_id, request_id, tool, arguments, caller, queue_job_id, poll_interval_ms, ttl_ms)
      VALUES (${newId('task', 32)}, ${t.key.account_id}, ${t.key.id}, ${t.requestId}, ${t.tool}, ${tx.json(t.arguments as never)},
              ${tx.json(caller)}, ${queueJobId}, ${pollIntervalMs(t.expectedSeconds)}, ${TASK_TTL_MS})
      RETURNING *`;
    await boss.insert(
      [
        {
          id: queueJobId,
          name: MCP_TASK_QUEUE,
          data: { task_id: row.id },
          retryLimit: MAX_TASK_ATTEMPTS + 2,
          retryDelay: 1,
          expireInSeconds: runExpirySeconds(t.expectedSeconds, t.expiry),
        },
      ],
      { db: bossDb(tx) },
    );
    return row;
  });
}

/** The caller's own live task, or null (unknown, another key's, or past its TTL). */
export async function findTask(db: Db, key: AuthedKey, taskId: string, lock = false): Promise<TaskRecord | null> {
  if (typeof taskId !== 'string' || taskId.length > 100) return null;
  const [row] = await db<TaskRecord[]>`SELECT * FROM mcp_tasks
    WHERE id = ${taskId} AND account_id = ${key.account_id} AND key_id = ${key.id}
      AND created_at + make_interval(secs => ttl_ms / 1000.0) > now()
    ${lock ? db`FOR UPDATE` : db``}`;
  return row ?? null;
}

/**
 * Cancels a working task: it turns cancelled, its queue entry is cancelled and a worker running it
 * is told (NOTIFY) to abort. The call is recorded as a client-ended call (499, nothing charged),
 * as REST records a client that hung up. A terminal task is left as it is.
 */
export async function cancelTask(sql: Sql, queue: JobQueue, key: AuthedKey, taskId: string): Promise<TaskRecord | null> {
  const found = await sql.begin(async (tx) => {
    const task = await findTask(tx, key, taskId, true);
    if (!task || task.status !== 'working') return { task, cancelled: false };
    const [row] = await tx<TaskRecord[]>`UPDATE mcp_tasks SET status = 'cancelled', status_message = 'cancelled by the client', updated_at = now()
      WHERE id = ${task.id} RETURNING *`;
    await recordEndedCall(tx, task, 499);
    await tx`SELECT pg_notify(${TASK_CANCEL_CHANNEL}, ${task.id})`;
    return { task: row, cancelled: true };
  });
  if (found.cancelled && queue.running)
    await queue
      .boss()
      .cancel(MCP_TASK_QUEUE, found.task!.queue_job_id)
      .catch(() => undefined);
  return found.task;
}

export const TASK_CANCEL_CHANNEL = 'mcp_task_cancel';

/** Moves a working task to running once more (attempts + 1); null when it is no longer working. */
export async function claimTask(sql: Sql, taskId: string): Promise<TaskRecord | null> {
  const [row] = await sql<TaskRecord[]>`UPDATE mcp_tasks SET attempts = attempts + 1, updated_at = now()
    WHERE id = ${taskId} AND status = 'working' RETURNING *`;
  return row ?? null;
}

/** The worker's commit of a finished call, inside the transaction that charges and records it; false when the task ended meanwhile. */
export async function completeTask(tx: Db, taskId: string, result: Record<string, unknown>): Promise<boolean> {
  const done = await tx<{ id: string }[]>`UPDATE mcp_tasks SET status = 'completed', result = ${tx.json(result as never)}, updated_at = now()
    WHERE id = ${taskId} AND status = 'working' RETURNING id`;
  return done.length > 0;
}

/** Locks a task for the worker's commit and tells whether it is still working. */
export async function stillWorking(tx: Db, taskId: string): Promise<boolean> {
  const [row] = await tx<{ status: TaskStatus }[]>`SELECT status FROM mcp_tasks WHERE id = ${taskId} FOR UPDATE`;
  return row?.status === 'working';
}

/** The task's status now, or null once it is forgotten. */
export async function taskStatus(db: Db, taskId: string): Promise<TaskStatus | null> {
  const [row] = await db<{ status: TaskStatus }[]>`SELECT status FROM mcp_tasks WHERE id = ${taskId}`;
  return row?.status ?? null;
}

export async function failTask(sql: Sql, task: TaskRecord, message: string): Promise<void> {
  await sql.begin(async (tx) => {
    const done = await tx<{ id: string }[]>`UPDATE mcp_tasks SET status = 'failed', status_message = ${message},
        error = ${tx.json({ code: -32603, message })}, updated_at = now()
      WHERE id = ${task.id} AND status = 'working' RETURNING id`;
    if (!done.length) return;
    await recordEndedCall(tx, task, 500);
  });
}

/** A task's call that ended without a result (cancelled: 499, failed: 500): recorded, nothing charged, through the money path. */
async function recordEndedCall(tx: Db, task: TaskRecord, status: number): Promise<void> {
  await settle(tx, [
    {
      id: task.request_id,
      accountId: task.account_id,
      history: {
        key_id: task.key_id,
        method: 'MCP',
        path: task.tool,
        status,
        duration_ms: Date.now() - task.created_at.getTime(),
        response_bytes: 0,
        credits: 0,
        rate_limited: false,
      },
      charge: null,
    },
  ]);
}

/** Forgets tasks past their TTL. */
export async function pruneTasks(sql: Sql): Promise<number> {
  const gone = await sql<{ id: string }[]>`DELETE FROM mcp_tasks WHERE created_at + make_interval(secs => ttl_ms / 1000.0) <= now() RETURNING id`;
  return gone.length;
}

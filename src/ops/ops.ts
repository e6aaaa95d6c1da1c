import type { Logger } from 'pino';
import type { Sql } from '../db/client.js';
import { addDatabaseGauges, createMetrics, type Metrics } from './metrics.js';
import { SourceOutcomes } from './outcome-store.js';

/** The process's metrics registry and outcome recorder; built by the dependency builder, one per process. */
export interface Ops {
  metrics: Metrics;
  outcomes: SourceOutcomes;
}

export interface OpsOptions {
  /** Null: outcomes feed the metrics only (a check run without a database). */
  sql: Sql | null;
  log: Logger;
  /** The pool whose use /metrics reports. */
  pool?: { max: number; applicationName: string };
}

export function createOps(opts: OpsOptions): Ops {
  const metrics = createMetrics();
  if (opts.sql && opts.pool) addDatabaseGauges(metrics, opts.sql, opts.pool);
  return { metrics, outcomes: new SourceOutcomes(opts.sql, metrics, opts.log) };
}

export interface CallRecord {
  /** The operation's name from the registry, or "unknown" (never a caller's text). */
  operation: string;
  transport: 'rest' | 'mcp' | 'watch' | 'batch';
  status: number;
  ms: number;
  credits: number;
}

export function recordCall(ops: Ops, call: CallRecord): void {
  const { metrics } = ops;
  metrics.requests.inc({ operation: call.operation, transport: call.transport, status: String(call.status) });
  metrics.requestSeconds.observe({ operation: call.operation, transport: call.transport }, call.ms / 1000);
  if (call.credits > 0) metrics.credits.inc({ operation: call.operation }, call.credits);
}

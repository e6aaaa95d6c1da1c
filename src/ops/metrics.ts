import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sql } from '../db/client.js';
import { openItemCounts } from '../jobs/calendar-jobs.js';
import { createBrowserMetrics, type BrowserMetrics } from './browser-metrics.js';
import { resultCacheSize } from '../platform/result-cache.js';

/** What one upstream request came to; also the labels of the upstream metrics. */
export const OUTCOMES = ['ok', 'blocked', 'contract_changed', 'timeout', 'upstream_error', 'unreachable'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * What the upstream paths did, per source: a browser visit, a plain call answered on a kept
 * clearance, a clearance renewed, a moved identifier found again, a reply judged drifted.
 */
export const PATH_EVENTS = ['browser_visit', 'plain_on_clearance', 'reclear', 'identifier_repair', 'drift'] as const;
export type PathEvent = (typeof PATH_EVENTS)[number];

export type BatchItemOutcome = 'succeeded' | 'failed' | 'retried';

/**
 * The process's metrics, on a registry of its own (never prom-client's global one): every label is
 * from a closed set (operation names, statuses, source aliases, outcomes), so no key, account or
 * URL can reach one.
 */
export interface Metrics {
  registry: Registry;
  requests: Counter<'operation' | 'transport' | 'status'>;
  requestSeconds: Histogram<'operation' | 'transport'>;
  credits: Counter<'operation'>;
  upstream: Counter<'source' | 'outcome'>;
  upstreamSeconds: Histogram<'source' | 'outcome'>;
  batchItems: Counter<'outcome'>;
  /** Upstream path events by source (PATH_EVENTS). */
  pathEvents: Counter<'source' | 'event'>;
  /** Calls of cached operations by how the result cache answered them (ResultCacheOutcome). */
  resultCache: Counter<'operation' | 'outcome'>;
  /** Unhandled rejections and uncaught exceptions the process guard logged and survived (app/process-guard.ts). */
  processFaults: Counter<'kind'>;
  browser: BrowserMetrics;
}

/**
 * How the result cache answered a call of a cached operation: `hit` from a stored answer, `coalesced`
 * from an identical call's fetch in flight (both free), `miss` fetched for this call, `bypass`
 * fetched live because the caller asked (cache: false, no_cache=true).
 */
export type ResultCacheOutcome = 'hit' | 'coalesced' | 'miss' | 'bypass';

export const PREFIX = 'hotelrates_';

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  return {
    registry,
    requests: new Counter({
      name: `${PREFIX}requests_total`,
      help: 'Operation calls (REST and MCP) by operation, transport and HTTP status',
      labelNames: ['operation', 'transport', 'status'],
      registers,
    }),
    requestSeconds: new Histogram({
      name: `${PREFIX}request_duration_seconds`,
      help: 'Time from the request to its answer, by operation and transport',
      labelNames: ['operation', 'transport'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    credits: new Counter({
      name: `${PREFIX}credits_charged_total`,
      help: 'Credits charged, by operation',
      labelNames: ['operation'],
      registers,
    }),
    upstream: new Counter({
      name: `${PREFIX}upstream_requests_total`,
      help: 'Upstream requests by source alias and outcome (retries within one request count once)',
      labelNames: ['source', 'outcome'],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: `${PREFIX}upstream_request_duration_seconds`,
      help: 'Upstream request time, retries included, by source alias and outcome',
      labelNames: ['source', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 45, 90],
      registers,
    }),
    processFaults: new Counter({
      name: `${PREFIX}process_faults_total`,
      help: 'Unhandled promise rejections and uncaught exceptions the process logged and survived, by kind (each one is a bug to report)',
      labelNames: ['kind'],
      registers,
    }),
    batchItems: new Counter({
      name: `${PREFIX}batch_items_total`,
      help: 'Calendar batch items processed by this process, by outcome (retried: back to the queue)',
      labelNames: ['outcome'],
      registers,
    }),
    pathEvents: new Counter({
      name: `${PREFIX}upstream_path_events_total`,
      help: "Upstream path events by source alias: browser_visit, plain_on_clearance (a plain call answered on a kept anti-bot clearance), reclear (a clearance renewed by a browser visit), identifier_repair (a moved build identifier found again), drift (a reply judged a contract change by the source's drift rules)",
      labelNames: ['source', 'event'],
      registers,
    }),
    resultCache: new Counter({
      name: `${PREFIX}result_cache_calls_total`,
      help: "Calls of cached operations by operation and how the result cache answered: hit, coalesced (an identical call's fetch shared), miss, bypass (asked live)",
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    browser: createBrowserMetrics(registry, PREFIX),
  };
}

/**
 * Gauges read from PostgreSQL at scrape time: the batch queue depth (the whole platform's) and this
 * process's connection pool (its backends carry the pool's own application_name).
 */
export function addDatabaseGauges(metrics: Metrics, sql: Sql, pool: { max: number; applicationName: string }): void {
  const registers = [metrics.registry];
  new Gauge({
    name: `${PREFIX}batch_queue_depth`,
    help: 'Calendar batch items waiting (queued) or in progress (running), across all workers',
    labelNames: ['status'],
    registers,
    async collect() {
      const counts = await openItemCounts(sql).catch(() => null);
      if (!counts) return;
      for (const status of ['queued', 'running'] as const) this.set({ status }, counts[status]);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "This process's PostgreSQL pool: connections in use (running a statement or a transaction) and idle; the scrape's own excluded",
    labelNames: ['state'],
    registers,
    async collect() {
      const rows = await sql<{ in_use: number; idle: number }[]>`
        SELECT count(*) FILTER (WHERE state <> 'idle')::int AS in_use, count(*) FILTER (WHERE state = 'idle')::int AS idle
        FROM pg_stat_activity WHERE application_name = ${pool.applicationName} AND pid <> pg_backend_pid()`.catch(() => null);
      if (!rows) return;
      this.set({ state: 'in_use' }, rows[0].in_use);
      this.set({ state: 'idle' }, rows[0].idle);
    },
  });
  new Gauge({ name: `${PREFIX}db_pool_max`, help: 'Size of the PostgreSQL connection pool (DB_POOL_MAX)', registers }).set(pool.max);
  new Gauge({
    name: `${PREFIX}result_cache_size`,
    help: 'The shared result cache (all processes): answers kept (entries), their bytes, and fetches under way (pending)',
    labelNames: ['measure'],
    registers,
    async collect() {
      const size = await resultCacheSize(sql).catch(() => null);
      if (!size) return;
      this.set({ measure: 'entries' }, size.entries);
      this.set({ measure: 'bytes' }, size.bytes);
      this.set({ measure: 'pending' }, size.pending);
    },
  });
}

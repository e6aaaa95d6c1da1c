import type { ServiceDeps } from '../../core/service-deps.js';
import { LIVE } from '../../core/result-cache.js';
import { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { AuthedKey } from '../../platform/keys.js';
import { scopeSources } from '../../sources/context.js';
import { newUpstreamSession } from '../../upstream/session.js';
import type { CanonicalCheck } from './canonical-checks.js';
import { isAlias } from '../../config/hosts.js';
import type { UpstreamMode } from '../../config/upstream-modes.js';
import type { Metrics, Outcome } from '../../ops/metrics.js';
import { classifyFailure, inSourceScope, type OutcomeEvent } from '../../ops/outcomes.js';
import { readSourceClearances, type SourceClearance, type SourcePaths } from '../../ops/source-paths.js';

/** An outcome class, or: the source answered but with nothing in it (empty), or it failed on our side (error). */
type CheckState = Outcome | 'empty' | 'error';

/** Which path the check's requests needed: the plain client, the browser (tried once plain was refused, or by mode), or none (no request). */
type CheckPath = 'http' | 'browser' | null;

interface CheckResult {
  source: string;
  state: CheckState;
  /** How the source is reached (UPSTREAM_<ALIAS>_MODE); null for the website fetcher. */
  mode: UpstreamMode | null;
  path: CheckPath;
  latency_ms: number;
  operation: string;
  checked: string;
  detail: string | null;
}

/**
 * The operator running the check: the registry's handler is called directly, so nothing is billed,
 * rate limited or stored for an account (the canonical operations read nothing stored).
 */
const OPERATOR: AuthedKey = { id: 'check-sources', name: 'check:sources', prefix: 'check', role: 'admin', rate_limit_per_min: 0, account_id: '', plan: null };

/**
 * Runs one canonical request through the operation's own handler in a source scope, so its
 * outcomes are classified (and recorded) exactly as a route's would be.
 */
async function checkSource(deps: ServiceDeps, check: CanonicalCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  // one session per check, like one API call: its own cookies; a changed reply is kept under diagnostics
  const requestId = newId('chk');
  const session = newUpstreamSession({ account_id: null, request_id: requestId });
  const done = (state: CheckState, detail: string | null): CheckResult => ({
    source: check.source,
    state,
    mode: isAlias(check.source) ? deps.config.upstreamModes[check.source] : null,
    path: session.paths.has('browser') ? 'browser' : session.paths.has('http') ? 'http' : null,
    latency_ms: Math.round(performance.now() - started),
    operation: check.operation,
    checked: check.checked,
    detail,
  });
  const tool = deps.tools.find((t) => t.name === check.operation);
  if (!tool) return done('error', `operation ${check.operation} is not in the registry`);
  const events: OutcomeEvent[] = [];
  const sink = {
    event: deps.ops.outcomes.event.bind(deps.ops.outcomes),
    record(batch: OutcomeEvent[]) {
      events.push(...batch);
      deps.ops.outcomes.record(batch);
    },
  };
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const input = tool.input.parse(check.input);
    const ctx = {
      deps: scopeSources(deps, { signal: deadline, session }),
      requestId,
      key: OPERATOR,
      transport: 'operator' as const,
      headers: {},
      zeroRetention: false,
      cache: LIVE,
    };
    const output = await inSourceScope(sink, () => tool.handler(input, ctx));
    return tool.credits.actual(input, output) > 0 ? done('ok', null) : done('empty', 'the answer had nothing in it');
  } catch (err) {
    const failed = events.findLast((e) => e.outcome !== 'ok')?.outcome;
    const state = deadline.aborted ? 'timeout' : (failed ?? classifyFailure(err) ?? 'error');
    const detail =
      err instanceof ApiError ? (typeof err.detail === 'string' ? err.detail : JSON.stringify(err.detail)) : String((err as Error)?.message ?? err);
    return done(state, deadline.aborted ? `no answer within ${timeoutMs / 1000} s` : detail);
  }
}

/** A check's result with what its run did on the upstream paths, and the clearance the source holds after it. */
export interface CheckReport extends CheckResult {
  paths: SourcePaths;
  clearance: SourceClearance | null;
}

/**
 * Every check at once, then each source's path figures of this run (this process ran only the
 * checks, so its counters are theirs) and the clearance it holds (with a database; none without).
 */
export async function checkSources(deps: ServiceDeps, checks: CanonicalCheck[], timeoutMs: number): Promise<CheckReport[]> {
  const results = await Promise.all(checks.map((c) => checkSource(deps, c, timeoutMs)));
  const clearances = await readSourceClearances(deps.sql).catch(() => new Map<string, SourceClearance>());
  return Promise.all(results.map(async (r) => ({ ...r, paths: await runPaths(deps.ops.metrics, r.source), clearance: clearances.get(r.source) ?? null })));
}

async function runPaths(metrics: Metrics, source: string): Promise<SourcePaths> {
  const sum = async (counter: Metrics['upstream'] | Metrics['pathEvents'], event?: string) =>
    (await counter.get()).values
      .filter((v) => {
        const labels: Record<string, string | number | undefined> = v.labels;
        return labels.source === source && (!event || labels.event === event);
      })
      .reduce((n, v) => n + v.value, 0);
  const calls = await sum(metrics.upstream);
  const browser_visits = await sum(metrics.pathEvents, 'browser_visit');
  return {
    calls,
    browser_visits,
    browser_visits_per_100_calls: calls ? Math.round((browser_visits / calls) * 1000) / 10 : null,
    plain_on_clearance: await sum(metrics.pathEvents, 'plain_on_clearance'),
    reclears: await sum(metrics.pathEvents, 'reclear'),
    identifier_repairs: await sum(metrics.pathEvents, 'identifier_repair'),
    drift_verdicts: await sum(metrics.pathEvents, 'drift'),
  };
}

const RIGHT = new Set([4, 5, 6, 7, 8, 9]);

/**
 * The operator's table: source | state | mode | path | latency | browser visits per 100 calls |
 * plain calls on a clearance | re-clears | identifier repairs | drift verdicts | clearance held |
 * what was checked (| why, when not ok).
 */
export function formatTable(results: CheckReport[]): string {
  const n = (v: number | null) => (v === null ? '-' : String(v));
  const rows = [
    ['source', 'state', 'mode', 'path', 'latency', 'browser/100', 'on-clearance', 'reclears', 'repairs', 'drift', 'clearance', 'checked', 'detail'],
    ...results.map((r) => [
      r.source,
      r.state,
      r.mode ?? '-',
      r.path ?? '-',
      `${r.latency_ms} ms`,
      n(r.paths.browser_visits_per_100_calls),
      n(r.paths.plain_on_clearance),
      n(r.paths.reclears),
      n(r.paths.identifier_repairs),
      n(r.paths.drift_verdicts),
      r.clearance ? `${r.clearance.wall} ${ageText(r.clearance.age_s)}${r.clearance.state === 'held' ? '' : ` (${r.clearance.state})`}` : '-',
      `${r.operation}: ${r.checked}`,
      r.detail ?? '',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => (RIGHT.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function ageText(s: number): string {
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

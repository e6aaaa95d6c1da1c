import type { ServiceDeps } from '../../core/service-deps.js';
import { LIVE } from '../../core/result-cache.js';
import { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { AuthedKey } from '../../platform/keys.js';
import { scopeSources } from '../../sources/context.js';
import { newUpstreamSession } from '../../upstream/session.js';
import type { CanonicalCheck } from './canonical-checks.js';
import type { Outcome } from '../../ops/metrics.js';
import { classifyFailure, inSourceScope, type OutcomeEvent } from '../../ops/outcomes.js';

/** An outcome class, or: the source answered but with nothing in it (empty), or it failed on our side (error). */
export type CheckState = Outcome | 'empty' | 'error';

/** Which path the check's requests needed: the plain client, the browser (tried once plain was refused, or by mode), or none (no request). */
export type CheckPath = 'http' | 'browser' | null;

export interface CheckResult {
  source: string;
  state: CheckState;
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
export async function checkSource(deps: ServiceDeps, check: CanonicalCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  // one session per check, like one API call: its own cookies; a changed reply is kept under diagnostics
  const requestId = newId('chk');
  const session = newUpstreamSession({ account_id: null, request_id: requestId });
  const done = (state: CheckState, detail: string | null): CheckResult => ({
    source: check.source,
    state,
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

export function checkSources(deps: ServiceDeps, checks: CanonicalCheck[], timeoutMs: number): Promise<CheckResult[]> {
  return Promise.all(checks.map((c) => checkSource(deps, c, timeoutMs)));
}

/** The operator's table: source | state | path | latency | what was checked (| why, when not ok). */
export function formatTable(results: CheckResult[]): string {
  const rows = [
    ['source', 'state', 'path', 'latency', 'checked', 'detail'],
    ...results.map((r) => [r.source, r.state, r.path ?? '-', `${r.latency_ms} ms`, `${r.operation}: ${r.checked}`, r.detail ?? '']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => (i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

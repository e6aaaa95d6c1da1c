/**
 * A parity_range watch's check, settled when its range's batch finishes: the check submitted the
 * range (POST /v1/compsets/{compset_id}/parity through the call lifecycle), whose batch was written
 * and queued in the check's own transaction, committed pending; the worker finishing the batch calls this in the batch's final transaction. The range's
 * disparities (stay and agency) are compared with the previous settled check's, and a disparity
 * not there before is told once (rule undercut): a watch.triggered event naming the new ones.
 */
import type { Tx } from '../../db/client.js';
import { disparityObservation } from '../../domain/watch-observation.js';
import { diff, evaluate } from '../../domain/watch-rules.js';
import { jobsProgress } from '../../jobs/calendar-jobs.js';
import { rangeOfFinishedJob, rangeOfRequest, type ParityRangeRow } from '../../platform/parity-ranges.js';
import { checkById, findWatch, pendingCheckIds, previousSettledCheck, settleCheck } from '../../platform/watches.js';
import { readParityRange } from '../compsets/parity-range.js';
import type { ToolServices } from '../define-tool.js';
import { triggeredEvent } from './check.js';

/** In the transaction that finishes the batch `jobId`: settles the watch check that submitted its range, if one did. */
export async function settleParityWatch(deps: Pick<ToolServices, 'config' | 'queue'>, tx: Tx, jobId: string): Promise<void> {
  const range = await rangeOfFinishedJob(tx, jobId);
  if (range?.request_id) await settle(deps, tx, range);
}

/**
 * Settles the parity range checks still pending whose batch has finished: a check whose batch
 * finished while the check itself was committing (neither saw the other), which only a range
 * submitted before its batch was written in the check's own transaction can be. Called by the watch sweep.
 */
export async function settleStragglers(deps: Pick<ToolServices, 'config' | 'queue' | 'sql'>): Promise<void> {
  for (const id of await pendingCheckIds(deps.sql, 5, 100)) {
    const range = await rangeOfRequest(deps.sql, id);
    if (!range) continue;
    const job = (await jobsProgress(deps.sql, range.account_id, [range.job_id])).get(range.job_id);
    if (job?.finished_at) await deps.sql.begin((tx) => settle(deps, tx, range));
  }
}

/** Inside a transaction: the batch's final one (pipelinedTransaction's), or the sweep's. */
async function settle(deps: Pick<ToolServices, 'config' | 'queue'>, tx: Tx, range: ParityRangeRow): Promise<void> {
  const pending = await checkById(tx, range.request_id!);
  if (!pending?.observation.pending) return;
  // not locked: a check committing on the watch holds it (and its batch's end may be waiting on us); settleCheck's guard keeps this once
  const watch = await findWatch(tx, range.account_id, pending.watch_id).catch(() => null);
  if (!watch || watch.operation !== 'parity_range') return;
  const answer = await readParityRange(tx, range.account_id, range);
  const observation = disparityObservation(answer.disparities);
  const prev = await previousSettledCheck(tx, pending);
  const changes = diff(prev?.observation ?? null, observation);
  const verdict = evaluate(watch.rule, watch.operation, prev?.observation ?? null, observation, changes);
  const check = await settleCheck(tx, pending.id, {
    currency: observation.currency,
    cheapest: observation.cheapest?.total ?? null,
    observation,
    changes,
    fired: verdict.fired,
  });
  if (!check || !verdict.fired) return;
  const fresh = new Set(verdict.matched.map((c) => c.key));
  await triggeredEvent(
    deps,
    tx,
    { watch, check, prev, verdict, hotel: { property_token: range.own.property_token, name: range.own.name }, parity: null },
    {
      parity_range: { id: range.id, compset_id: range.compset_id, poll_url: answer.poll_url, tolerance_pct: range.request.tolerance_pct },
      disparities: answer.disparities.filter((d) => fresh.has(`${d.date}|${d.los}|${d.source}`)),
    },
  );
}

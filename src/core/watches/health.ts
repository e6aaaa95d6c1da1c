/**
 * Watch-health events, stored and delivered like watch.triggered (they follow no check):
 * `watch.paused` (the watch paused by itself: its target is gone, or the account cannot pay a
 * check), `watch.failing` (WATCH_FAILING_AFTER schedule periods missed one after another) and
 * `watch.resumed` (checking again: the first check after failing succeeded, or credits came back).
 * Each commits in the transaction that changed the watch, so it exists exactly when that change does.
 */
import type { Tx } from '../../db/client.js';
import type PgBoss from 'pg-boss';
import type { Config } from '../../config/config.js';
import { newId } from '../../domain/ids.js';
import { queueWatchWebhook } from '../../jobs/watch-queue.js';
import { markFailing, watchTotals, type WatchRow } from '../../platform/watches.js';
import { insertEvent, type EventRow } from '../../platform/watch-events.js';
import { watchResource } from './resource.js';
import { hotelOf } from './target.js';

type HealthType = 'watch.paused' | 'watch.failing' | 'watch.resumed';

export async function healthEvent(
  deps: { config: Pick<Config, 'WEBHOOK_SIGNING_SECRET'> },
  boss: PgBoss,
  tx: Tx,
  watch: WatchRow,
  type: HealthType,
  data: { reason: string; request_id: string | null } & Record<string, unknown>,
): Promise<EventRow> {
  // a failed attempt's event takes its request's id (one event per attempt); a resumption (whose
  // check may fire its own event with the check's id) and the others a new one
  const fromAttempt = type !== 'watch.resumed' && data.request_id;
  const id = fromAttempt ? `evt_${fromAttempt.slice(fromAttempt.indexOf('_') + 1)}` : newId('evt');
  const totals = await watchTotals(tx, [watch.id]);
  const at = new Date();
  const payload = {
    id,
    type,
    timestamp: at.toISOString(),
    data: { watch: watchResource(watch, totals.get(watch.id)), hotel: hotelOf(watch, null), ...data },
  };
  const event = await insertEvent(tx, { id, watch, checkId: null, type, at, payload });
  if (watch.callback_url && deps.config.WEBHOOK_SIGNING_SECRET) await queueWatchWebhook(boss, tx, id);
  return event;
}

/** After a missed period: the watch is failing once WATCH_FAILING_AFTER were missed in a row (told once). */
export async function afterMissed(
  deps: { config: Pick<Config, 'WEBHOOK_SIGNING_SECRET' | 'WATCH_FAILING_AFTER'> },
  boss: PgBoss,
  tx: Tx,
  watch: WatchRow,
  p: { detail: string; requestId: string },
): Promise<void> {
  if (watch.misses_in_row < deps.config.WATCH_FAILING_AFTER || watch.failing_since) return;
  const failing = await markFailing(tx, watch.id);
  if (!failing) return;
  await healthEvent(deps, boss, tx, failing, 'watch.failing', {
    reason: 'missed_periods',
    detail: `${failing.misses_in_row} schedule periods missed in a row: every attempt failed (the last: ${p.detail})`,
    periods_missed_in_row: failing.misses_in_row,
    request_id: p.requestId,
  });
}

/**
 * Redelivery of a watch event (the API's POST …/events/{event_id}/redeliver and the dashboard's
 * button): the event as stored, signed again with the same webhook-id (receivers deduplicate on
 * it), to the watch's callback_url of now (a receiver fixed since is reached), with a new round of
 * the retry schedule. Any event may be redelivered, delivered or failed; one whose delivery is
 * still under way is a 409 (its attempts go on).
 */
import type { ToolServices } from '../define-tool.js';
import { Conflict, DependencyDown, NotFound } from '../../domain/errors.js';
import { queueWatchWebhook } from '../../jobs/watch-queue.js';
import { findWatch } from '../../platform/watches.js';
import { findDigest, restartDelivery, type EventRow } from '../../platform/watch-events.js';

export async function redeliverEvent(deps: ToolServices, accountId: string, watchId: string, eventId: string): Promise<EventRow> {
  const watch = await findWatch(deps.sql, accountId, watchId);
  if (!watch.callback_url) throw new Conflict('the watch has no callback_url to deliver to: set one with PATCH /v1/watches/{watch_id}');
  return await restart(deps, { accountId, watchId: watch.id, eventId, callbackUrl: watch.callback_url });
}

/** A digest goes again to the URL it was made for (each callback URL of the account's watches has its own). */
export async function redeliverDigest(deps: ToolServices, accountId: string, eventId: string): Promise<EventRow> {
  const digest = await findDigest(deps.sql, accountId, eventId);
  if (!digest) throw new NotFound('digest not found');
  if (!digest.callback_url) throw new Conflict('this digest has no callback_url: none of the watches had one that day');
  return await restart(deps, { accountId, watchId: null, eventId, callbackUrl: digest.callback_url });
}

async function restart(deps: ToolServices, e: { accountId: string; watchId: string | null; eventId: string; callbackUrl: string }): Promise<EventRow> {
  if (!deps.config.WEBHOOK_SIGNING_SECRET) throw new DependencyDown('webhook delivery is not enabled for this service');
  return await deps.sql.begin(async (tx) => {
    const done = await restartDelivery(tx, e);
    if (!done) throw new NotFound('event not found');
    if (!done.restarted) throw new Conflict(`a delivery of this event is under way (${done.event.callback_attempts} attempts made): it goes on by itself`);
    await queueWatchWebhook(deps.queue.boss(), tx, done.event.id, 1, 0, done.event.round);
    return done.event;
  });
}

/**
 * `watch.triggered` deliveries: the same Standard Webhooks signing, SSRF-safe fetcher and retry
 * schedule as `job.completed` (src/workers/webhooks.ts). The body is the event as stored and listed
 * at GET /v1/watches/{id}/events; `webhook-id` is the event id on every attempt.
 */
import type { ServiceDeps } from '../core/service-deps.js';
import { webhookSigningKey } from '../config/webhook-settings.js';
import { deliverWebhook, nextAttemptDelay, type WebhookEvent } from './webhooks.js';
import type { SafeFetcher } from '../upstream/safe-fetch.js';
import { deliveryDone, eventForDelivery } from '../platform/watch-events.js';
import { queueWatchWebhook, type WatchWebhookJob } from '../jobs/watch-queue.js';

/** One attempt; its outcome and the next attempt's queue entry commit together, once per attempt. */
export async function sendWatchWebhook(deps: ServiceDeps, fetcher: SafeFetcher, entry: WatchWebhookJob): Promise<void> {
  const attempt = entry.attempt ?? 1;
  const round = entry.round ?? 0;
  const event = await eventForDelivery(deps.sql, entry.event_id);
  // gone with its watch, delivered already, this attempt was made, or it belongs to an earlier round (a redelivery followed)
  if (!event?.callback_url || event.callback_status !== 'pending' || event.callback_attempts !== attempt - 1 || event.round !== round) return;
  if (!deps.config.WEBHOOK_SIGNING_SECRET) return;
  const outcome = await deliverWebhook(
    webhookSigningKey(deps.config.WEBHOOK_SIGNING_SECRET),
    fetcher,
    event.callback_url,
    event.payload as unknown as WebhookEvent,
  );
  const delay = outcome.delivered || outcome.gone ? null : nextAttemptDelay(deps.config.WEBHOOK_RETRY_SCHEDULE_S, attempt, outcome.retryAfterS);
  const status = outcome.delivered ? 'delivered' : delay === null ? 'failed' : 'pending';
  await deps.sql.begin(async (tx) => {
    if ((await deliveryDone(tx, event.id, { attempt, round }, status, outcome.error)) && delay !== null)
      await queueWatchWebhook(deps.queue.boss(), tx, event.id, attempt + 1, delay, round);
  });
  if (outcome.gone) deps.log.info({ eventId: event.id }, 'watch webhook receiver answered 410 Gone: no further attempts');
}

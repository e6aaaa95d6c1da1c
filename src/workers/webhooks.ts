import { randomInt } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';
import type { Config } from '../config/config.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { ApiError, detailText } from '../domain/errors.js';
import { SafeFetcher } from '../upstream/safe-fetch.js';
import { bossDb, jobCallback, readCalendarJob, recordCallbackAttempt, WEBHOOK_QUEUE } from '../jobs/calendar-jobs.js';
import { webhookSigningKey } from '../config/webhook-settings.js';
import { signWebhook } from '../jobs/webhook-signing.js';

/*
 * `job.completed` as a Standard Webhooks v1 message (https://www.standardwebhooks.com):
 *   webhook-id         the event id, the same on every attempt (receivers deduplicate on it)
 *   webhook-timestamp  unix seconds of this attempt
 *   webhook-signature  `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the
 *                      bytes of the `whsec_<base64>` secret
 * so any Standard Webhooks verifier (e.g. the `standardwebhooks` npm library) accepts it.
 * Attempts follow the spec's example schedule (WEBHOOK_RETRY_SCHEDULE_S); a 410 Gone from the
 * receiver ends them at once.
 */

/**
 * Deliveries go through the SSRF-safe fetcher, with the spec's 15 s timeout and no redirects
 * (a 3xx is a failed attempt: the receiver should fix its URL).
 */
export function webhookFetcher(config: Pick<Config, 'SAFE_FETCH_ALLOW_PRIVATE'>): SafeFetcher {
  return new SafeFetcher({ allowPrivate: config.SAFE_FETCH_ALLOW_PRIVATE, timeoutMs: 15_000, maxRedirects: 0, maxBytes: 64 * 1024 });
}

export interface WebhookOutcome {
  delivered: boolean;
  /** 410 Gone: the receiver wants no more deliveries from us. */
  gone: boolean;
  error: string | null;
  /** Seconds the receiver asked us to wait (Retry-After), when it did. */
  retryAfterS: number | null;
}

export interface WebhookEvent {
  id: string;
  type: string;
  [field: string]: unknown;
}

export async function deliverWebhook(key: Buffer, fetcher: SafeFetcher, url: string, event: WebhookEvent): Promise<WebhookOutcome> {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetcher.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'hotelrates-webhooks/1.0',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(key, event.id, timestamp, body),
      },
      body,
    });
    const delivered = res.status >= 200 && res.status < 300;
    const retryAfter = Number(res.headers['retry-after']);
    return {
      delivered,
      gone: res.status === 410,
      error: delivered ? null : `HTTP ${res.status}`,
      retryAfterS: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    };
  } catch (err) {
    const error = err instanceof ApiError ? detailText(err) : err instanceof Error ? err.message : 'delivery failed';
    return { delivered: false, gone: false, error, retryAfterS: null };
  }
}

/** Seconds before the next attempt after `attempts` attempts, or null when the schedule is spent. */
export function nextAttemptDelay(schedule: number[], attempts: number, retryAfterS: number | null): number | null {
  const planned = schedule[attempts - 1];
  if (planned === undefined) return null;
  // up to 10% jitter, so that receivers failing together are not retried together; a longer Retry-After wins (capped at a day)
  const jittered = planned + (planned * randomInt(0, 101)) / 1000;
  return Math.max(jittered, Math.min(retryAfterS ?? 0, 86_400));
}

interface WebhookJob {
  job_id: string;
  /** The attempt this queue entry makes (1 = the first). */
  attempt: number;
}

/** Queues an attempt inside the caller's transaction: it exists exactly when that transaction commits. */
export async function queueJobWebhook(boss: PgBoss, tx: Db, jobId: string, attempt = 1, delayS = 0): Promise<void> {
  const data: WebhookJob = { job_id: jobId, attempt };
  // retryLimit covers a worker dying mid-attempt (the entry expires and runs again); failed
  // deliveries are not retried by pg-boss but rescheduled here with the spec's delays.
  await boss.insert([{ name: WEBHOOK_QUEUE, data, retryLimit: 3, retryDelay: 5, expireInSeconds: 60, startAfter: new Date(Date.now() + delayS * 1000) }], {
    db: bossDb(tx),
  });
}

/**
 * One attempt. Its outcome and the next attempt's queue entry commit together, and only if no
 * other run of the same attempt got there first (a replay after a crash changes nothing twice).
 */
export async function sendJobWebhook(deps: Pick<ServiceDeps, 'sql' | 'config' | 'log'>, boss: PgBoss, fetcher: SafeFetcher, entry: WebhookJob): Promise<void> {
  const attempt = entry.attempt ?? 1;
  const job = await jobCallback(deps.sql, entry.job_id);
  if (!job?.callback_url || job.callback_status !== 'pending' || job.callback_attempts !== attempt - 1) return;
  const resource = await readCalendarJob(deps.sql, job.account_id, entry.job_id, false, deps.config.PUBLIC_BASE_URL ?? null);
  const event: WebhookEvent = {
    id: `evt_${entry.job_id.slice(entry.job_id.indexOf('_') + 1)}`,
    type: 'job.completed',
    timestamp: resource.finished_at,
    created_at: resource.finished_at,
    data: { job: resource },
  };
  const outcome = await deliverWebhook(webhookSigningKey(deps.config.WEBHOOK_SIGNING_SECRET!), fetcher, job.callback_url, event);
  const delay = outcome.delivered || outcome.gone ? null : nextAttemptDelay(deps.config.WEBHOOK_RETRY_SCHEDULE_S, attempt, outcome.retryAfterS);
  const status = outcome.delivered ? 'delivered' : delay === null ? 'failed' : 'pending';
  await deps.sql.begin(async (tx) => {
    const recorded = await recordCallbackAttempt(tx, entry.job_id, attempt, { status, error: outcome.error });
    if (recorded && delay !== null) await queueJobWebhook(boss, tx, entry.job_id, attempt + 1, delay);
  });
  if (outcome.gone) deps.log.info({ jobId: entry.job_id }, 'webhook receiver answered 410 Gone: no further attempts');
}

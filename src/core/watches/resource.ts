/**
 * The watch, check and event resources as the API answers them (tools/watches.ts states their
 * schemas), built from the rows of platform/watches.ts.
 */
import { z } from 'zod';
import { ProvenanceSchema } from '../../domain/provenance.js';
import { ParitySchema } from '../../domain/parity.js';
import { ChangeSchema, RuleSchema } from '../../domain/watch-rules.js';
import { OPERATIONS } from '../../domain/watch-observation.js';
import { isoOrNull, type CheckRow, type WatchRow, type WatchTotals } from '../../platform/watches.js';
import type { EventRow } from '../../platform/watch-events.js';

/** Changes listed per check in the answers (the stored check keeps them all). */
const CHANGES_SHOWN = 50;

const Cheapest = z
  .object({ key: z.string(), total: z.number(), currency: z.string(), provenance: ProvenanceSchema.nullable() })
  .nullable()
  .describe('the lowest price seen in the target currency: which night, seller or source, with its provenance');

const StoredRun = z
  .object({ run_id: z.string(), rows_written: z.int(), rows_changed: z.int(), rows_removed: z.int() })
  .nullable()
  .describe("the check's stored rates (GET /v1/rates): the run and its diff against what the account had stored");

export const CheckSchema = z.object({
  id: z.string().describe('the check; also its request id (GET /v1/requests/{request_id}) and its ledger entry'),
  request_id: z.string(),
  checked_at: z.string(),
  trigger: z.enum(['schedule', 'request']),
  period: z.int().nullable().describe('the schedule slot checked (0, 1, 2 …); null for a check asked for'),
  credits: z.int(),
  currency: z.string().nullable(),
  cheapest: Cheapest,
  changed: z.int().describe('nights, sellers or sources different from the previous check'),
  changes: z.array(ChangeSchema).describe(`what changed (at most ${CHANGES_SHOWN} here)`),
  fired: z.boolean(),
  parity: ParitySchema.nullable(),
  stored: StoredRun,
});

export const WatchSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  status: z.enum(['active', 'paused', 'ended']).describe('ended: its end date came or its stay passed; it checks no more'),
  paused_reason: z
    .enum(['paused_by_user', 'insufficient_credits', 'gone'])
    .nullable()
    .describe(
      'insufficient_credits: resumes by itself once the account can pay a check; gone: the target no longer exists upstream (a 404 of the property), last_error says so and a watch.paused event tells it; resume it yourself',
    ),
  ends_at: z.string().nullable().describe('when the watch ends (its end date); null: when its stay has passed, or never for a rolling calendar'),
  ended_reason: z.enum(['end_date', 'stay_passed']).nullable(),
  target: z.looseObject({ operation: z.enum(OPERATIONS) }).describe('the operation and its input, as given'),
  rule: RuleSchema,
  every_hours: z.int(),
  callback_url: z.string().nullable(),
  credits_per_check: z.int().describe('the most one check costs (the operation’s cost); empty or failed checks cost 0'),
  next_check_at: z.string().nullable().describe('null while paused or ended'),
  last_check_at: z.string().nullable(),
  last_price: Cheapest,
  last_error: z.string().nullable().describe('the last failed attempt (charged nothing), until a check succeeds'),
  periods_missed: z.int().describe('schedule periods that ended unchecked (every attempt failed, or the service was down longer than a period)'),
  failing_since: z
    .string()
    .nullable()
    .describe('since when the watch is failing (WATCH_FAILING_AFTER periods missed in a row; a watch.failing event told it); null once a check succeeds again'),
  checks_total: z.int(),
  credits_spent: z.int(),
  events_total: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const EventSchema = z.object({
  id: z.string().describe('the webhook-id of its delivery'),
  type: z
    .enum(['watch.triggered', 'watch.paused', 'watch.failing', 'watch.resumed', 'watch.digest'])
    .describe(
      'watch.paused: the watch paused by itself (data.reason gone: its target no longer exists upstream; insufficient_credits); watch.failing: periods missed one after another; watch.resumed: checking again after failing or a credits pause; watch.digest: the account’s daily digest (GET /v1/digests)',
    ),
  created_at: z.string(),
  check_id: z.string().nullable().describe('the check that fired it; null for the health events and the digest'),
  request_id: z
    .string()
    .nullable()
    .describe('the check, or the failed attempt (GET /v1/requests/{request_id}); null where no call stands behind the event (a resumption, the digest)'),
  callback_status: z.enum(['not_configured', 'pending', 'delivered', 'failed']),
  callback_attempts: z.int(),
  callback_last_error: z.string().nullable(),
  redeliveries: z.int().describe('times delivery was asked for again (POST /v1/watches/{watch_id}/events/{event_id}/redeliver)'),
  redelivered_at: z.string().nullable().describe('when it was last asked for again'),
  data: z.record(z.string(), z.unknown()).describe('the event’s data as delivered: watch, rule, reason, before, after, changes, parity, check'),
});

export function checkResource(c: CheckRow) {
  return {
    id: c.id,
    request_id: c.id,
    checked_at: c.created_at.toISOString(),
    trigger: c.trigger,
    period: c.period,
    credits: c.credits,
    currency: c.currency,
    cheapest: c.observation.cheapest ?? null,
    changed: c.changes.length,
    changes: c.changes.slice(0, CHANGES_SHOWN),
    fired: c.fired,
    parity: (c.parity ?? null) as z.infer<typeof ParitySchema> | null,
    stored: (c.run ?? null) as z.infer<typeof StoredRun>,
  };
}

export function watchResource(w: WatchRow, t: WatchTotals | undefined) {
  return {
    id: w.id,
    name: w.name,
    status: w.status,
    paused_reason: w.paused_reason,
    ends_at: isoOrNull(w.ends_at),
    ended_reason: w.ended_reason,
    target: { operation: w.operation, ...w.target },
    rule: w.rule,
    every_hours: w.every_hours,
    callback_url: w.callback_url,
    credits_per_check: w.credits_per_check,
    next_check_at: w.status === 'active' ? w.next_check_at.toISOString() : null,
    last_check_at: isoOrNull(w.last_check_at),
    last_price: (t?.last_price ?? null) as z.infer<typeof Cheapest>,
    last_error: w.last_error,
    periods_missed: w.periods_missed,
    failing_since: isoOrNull(w.failing_since),
    checks_total: t?.checks ?? 0,
    credits_spent: t?.credits ?? 0,
    events_total: t?.events ?? 0,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export function eventResource(e: EventRow) {
  return {
    id: e.id,
    type: e.type,
    created_at: e.created_at.toISOString(),
    check_id: e.check_id,
    request_id: e.check_id ?? (e.payload as { data?: { request_id?: string } }).data?.request_id ?? null,
    callback_status: e.callback_status,
    callback_attempts: e.callback_attempts,
    callback_last_error: e.callback_last_error,
    redeliveries: e.round,
    redelivered_at: isoOrNull(e.redelivered_at),
    data: (e.payload as { data?: Record<string, unknown> }).data ?? {},
  };
}

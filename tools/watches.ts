import { z } from 'zod';
import { InvalidInput, NotFound } from '../src/domain/errors.js';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { queryInt } from '../src/domain/query-params.js';
import { runCheck } from '../src/core/watches/check.js';
import { changeWatch, createWatch, readWatch, readWatches, watchAnswer } from '../src/core/watches/manage.js';
import { redeliverEvent } from '../src/core/watches/redeliver.js';
import { CheckSchema, EventSchema, WatchSchema, checkResource, eventResource, watchResource } from '../src/core/watches/resource.js';
import { RuleSchema } from '../src/domain/watch-rules.js';
import { listEvents } from '../src/platform/watch-events.js';
import { deleteWatch, findWatch, watchTotals } from '../src/platform/watches.js';
import { OPERATIONS } from '../src/domain/watch-observation.js';

/*
 * Watches: REST only (not MCP tools: the MCP tools stay read-only). Every watch belongs to the
 * key's account; another account's watch is a 404 on every route.
 */

const watchId = z.string().min(1).max(100).describe('The watch id returned by POST /v1/watches.');
const everyHours = z.int().min(1).max(168).describe('hours between checks (1-168)');
const callbackUrl = z
  .string()
  .max(2048)
  .nullable()
  .describe('HTTPS URL receiving the signed watch.triggered webhook (Standard Webhooks), as batch callbacks do; null: none');
const name = z.string().trim().min(1).max(200).nullable().describe('your name for the watch');
const endsAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .describe('when the watch ends (ISO 8601, in the future); without it a watch ends once its stay has passed (a calendar without start never does)');
const TARGET_DOC =
  'What to re-price: `operation` names an existing operation and the other fields are its own input, validated as that route validates it: ' +
  '`calendar` = the body of POST /v1/calendar (property_token, start, days, los, currency, market …; without start the window starts tomorrow at every check), ' +
  '`offers` = the body of POST /v1/offers (property_token, check_in, nights …), `compare` = the body of POST /v1/ota/compare (check_in, nights, sources …), ' +
  '`parity_range` = the body of POST /v1/compsets/{compset_id}/parity with compset_id (days, los, sources, tolerance_pct …; rule undercut: a new disparity; without start the range starts tomorrow at every check). ' +
  'zero_retention is refused: a watch stores what it sees.';

const idempotency = {
  'Idempotency-Key': {
    description:
      'Optional unique key for this creation (1-200 characters): the same key with the same body returns the original watch; with another body it is a 409.',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  },
};

function idempotencyKey(headers: Record<string, string | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  if (value !== undefined && (value.length < 1 || value.length > 200)) {
    throw new InvalidInput([{ type: 'string_too_long', loc: ['header', 'idempotency-key'], msg: 'Idempotency-Key must be 1-200 characters', input: value }]);
  }
  return value;
}

/** MCP hints of the watch tools that only read the account's watches. */
const READS = { readOnly: true, destructive: false, idempotent: true, openWorld: false };

/** One watch in a line: what a model needs to follow it up (its id) and what it is doing. */
const watchLine = (answer: Record<string, unknown>) => {
  const w = answer as z.output<typeof WatchSchema>;
  const why = w.paused_reason ?? w.ended_reason;
  return `${w.id}${w.name ? ` "${w.name}"` : ''}: ${w.status}${why ? ` (${why})` : ''}, ${w.target.operation} every ${w.every_hours} h, up to ${w.credits_per_check} credits a check, next check ${w.next_check_at ?? 'none'}`;
};

const createWatchTool = defineTool({
  name: 'create_watch',
  title: 'Create a watch',
  description:
    'Re-prices a target on a schedule and tells you when a rule fires: a watch.triggered event (signed webhook to callback_url, and GET /v1/watches/{watch_id}/events) with the before and after, what changed with provenance, and the check’s request id. The first check runs at once (the baseline); then one check per every_hours period. Each check is charged like the operation it runs (credits_per_check at most; empty or failed checks are free) and its prices are stored rates of your account (GET /v1/rates). Plans limit the active watches (GET /v1/billing/plans). Creating is free; Idempotency-Key honoured.',
  method: 'POST',
  path: '/v1/watches',
  tags: ['watches'],
  status: 201,
  input: z.strictObject({
    target: z.looseObject({ operation: z.enum(OPERATIONS).describe('the operation a check runs') }).describe(TARGET_DOC),
    rule: RuleSchema,
    every_hours: everyHours.default(24),
    callback_url: callbackUrl.optional(),
    name: name.optional(),
    ends_at: endsAt.optional(),
  }),
  output: WatchSchema,
  mcp: {
    set: 'watches',
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    summary: (w) => `Watch created: ${watchLine(w)}. Its first check (the baseline) runs now.`,
  },
  credits: 0,
  headers: idempotency,
  errors: {
    403: 'The plan’s limit of active watches is reached.',
    409: 'The Idempotency-Key was already used with a different body.',
    503: 'callback_url was given but webhooks are not enabled on this service, or the queue is down.',
  },
  example: {
    target: { operation: 'calendar', property_token: 'ChcIyo2FqYnKnMQ2GgsvZy8xdGZ6NDQ2ahAB', days: 30 },
    rule: { type: 'below', price: 150 },
    every_hours: 24,
    name: 'Spring nights under 150',
  },
  async handler(input, { deps, key, headers }) {
    const watch = await createWatch(deps, key, input, idempotencyKey(headers));
    return watchAnswer(deps, watch);
  },
});

const listWatchesTool = defineTool({
  name: 'list_watches',
  title: 'List watches',
  description: 'Your account’s watches, newest first, with state, next check, last price, checks, credits spent and events. Free.',
  method: 'GET',
  path: '/v1/watches',
  tags: ['watches'],
  input: z.strictObject({
    limit: queryInt.pipe(z.int().min(1).max(200)).default(50).describe('watches per page (1-200)'),
    offset: queryInt.pipe(z.int().min(0).max(100_000)).default(0).describe('watches to skip'),
  }),
  output: z.object({ watches: z.array(WatchSchema) }),
  mcp: {
    set: 'watches',
    hints: READS,
    summary: (a) => `${(a.watches as unknown[]).length} watch(es).`,
    text: (a) => (a.watches as Record<string, unknown>[]).map(watchLine),
  },
  credits: 0,
  async handler({ limit, offset }, { deps, key }) {
    return { watches: await readWatches(deps, key.account_id, limit, offset) };
  },
});

const getWatchTool = defineTool({
  name: 'get_watch',
  title: 'A watch and its last checks',
  description:
    'One watch with its latest checks: when, the price seen (cheapest, with provenance), what changed, whether the rule fired, parity (compare targets), the stored-rates run and the credits. Free; another account’s watch is a 404.',
  method: 'GET',
  path: '/v1/watches/{watch_id}',
  tags: ['watches'],
  input: z.strictObject({ watch_id: watchId, checks: queryInt.pipe(z.int().min(0).max(100)).default(10).describe('latest checks to include (0-100)') }),
  output: WatchSchema.extend({ checks: z.array(CheckSchema) }),
  mcp: { set: 'watches', hints: READS, summary: (w) => `Watch ${watchLine(w)}.` },
  credits: 0,
  errors: { 404: 'No watch of your account has that id.' },
  async handler({ watch_id, checks }, { deps, key }) {
    return readWatch(deps, key.account_id, watch_id, checks);
  },
});

const updateWatchTool = defineTool({
  name: 'update_watch',
  title: 'Change, pause or resume a watch',
  description:
    'Changes a watch’s rule, schedule (every_hours: the next check moves to one period after the last), callback_url or name; status paused stops its checks, active resumes them (within the plan’s limit of active watches; a watch paused for insufficient credits also resumes by itself once the account can pay). Free.',
  method: 'PATCH',
  path: '/v1/watches/{watch_id}',
  tags: ['watches'],
  input: z.strictObject({
    watch_id: watchId,
    rule: RuleSchema.optional(),
    every_hours: everyHours.optional(),
    callback_url: callbackUrl.optional(),
    name: name.optional(),
    ends_at: endsAt.optional(),
    status: z.enum(['active', 'paused']).optional().describe('paused: no more checks until active again (an ended watch is a 409)'),
  }),
  output: WatchSchema,
  mcp: {
    set: 'watches',
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    summary: (w) => `Watch changed: ${watchLine(w)}.`,
  },
  credits: 0,
  errors: {
    403: 'Resuming would pass the plan’s limit of active watches.',
    404: 'No watch of your account has that id.',
    409: 'The watch has ended: its status no longer changes.',
    503: 'callback_url was given but webhooks are not enabled on this service, or the queue is down.',
  },
  async handler({ watch_id, ...change }, { deps, key }) {
    const watch = await changeWatch(deps, key, watch_id, change);
    return watchAnswer(deps, watch);
  },
});

const deleteWatchTool = defineTool({
  name: 'delete_watch',
  title: 'Delete a watch',
  description:
    'Deletes a watch with its checks and events (its stored rates, history rows and ledger entries stay). A check running meanwhile is discarded, charged nothing. Free.',
  method: 'DELETE',
  path: '/v1/watches/{watch_id}',
  tags: ['watches'],
  input: z.strictObject({ watch_id: watchId }),
  output: z.object({ id: z.string(), deleted: z.literal(true) }),
  mcp: { set: 'watches', hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false }, summary: (a) => `Watch ${String(a.id)} deleted.` },
  credits: 0,
  errors: { 404: 'No watch of your account has that id.' },
  async handler({ watch_id }, { deps, key }) {
    await deleteWatch(deps.sql, key.account_id, watch_id);
    return { id: watch_id, deleted: true as const };
  },
});

const checkWatchTool = defineTool({
  name: 'check_watch',
  title: 'Check a watch now',
  description:
    'Runs one check of the watch now, outside its schedule (which it does not move): the operation runs as its own route would, the check is compared with the previous one, the rule is applied (an event when it fires). Charged like the operation it runs, in the credit headers; a failed check is free. Works on a paused watch too.',
  method: 'POST',
  path: '/v1/watches/{watch_id}/check',
  tags: ['watches'],
  input: z.strictObject({ watch_id: watchId }),
  output: z.object({ check: CheckSchema, event: EventSchema.nullable(), watch: WatchSchema }),
  mcp: {
    set: 'watches',
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    summary: (a) => {
      const { check, watch } = a as { check: z.output<typeof CheckSchema>; watch: z.output<typeof WatchSchema> };
      return `Checked ${watch.id}: ${check.credits} credit(s), rule ${check.fired ? 'fired' : 'not fired'}.`;
    },
  },
  credits: {
    base: 0,
    note: 'charged like the operation the watch runs (credits_per_check at most); failed and empty checks are free',
    max: () => 0,
    actual: () => 0,
  },
  errors: {
    400: 'The operation refuses the target now (e.g. a stay date in the past).',
    402: 'Credits are enforced and the check needs more credits than the period has left.',
    404: 'No watch of your account has that id, or the upstream says the property does not exist.',
    502: 'The upstream failed or blocked the request; retryable, nothing is charged.',
    503: 'The upstream’s structure changed, or a dependency of ours is down.',
    504: 'A source did not answer in time.',
  },
  async handler({ watch_id }, ctx) {
    const { deps, key, requestId } = ctx;
    const watch = await findWatch(deps.sql, key.account_id, watch_id);
    const outcome = await runCheck(deps, { watch, key, requestId, slot: null });
    if (!outcome) throw new NotFound('watch not found');
    ctx.reportCharge?.(outcome.charged, outcome.remaining);
    const totals = await watchTotals(deps.sql, [watch.id]);
    return {
      check: checkResource(outcome.check),
      event: outcome.event ? eventResource(outcome.event) : null,
      watch: watchResource(outcome.watch, totals.get(watch.id)),
    };
  },
});

const watchEventsTool = defineTool({
  name: 'list_watch_events',
  title: 'Events of a watch',
  description:
    'The watch.triggered events of a watch, newest first, each as delivered to callback_url (data: watch, rule, reason, before, after, changes with provenance, parity, the check and its request id) with its delivery state. Free.',
  method: 'GET',
  path: '/v1/watches/{watch_id}/events',
  tags: ['watches'],
  input: z.strictObject({
    watch_id: watchId,
    limit: queryInt.pipe(z.int().min(1).max(200)).default(50).describe('events per page (1-200)'),
    offset: queryInt.pipe(z.int().min(0).max(100_000)).default(0).describe('events to skip'),
  }),
  output: z.object({ watch_id: z.string(), events: z.array(EventSchema) }),
  mcp: { set: 'watches', hints: READS, summary: (a) => `${(a.events as unknown[]).length} event(s) of watch ${String(a.watch_id)}.` },
  credits: 0,
  errors: { 404: 'No watch of your account has that id.' },
  async handler({ watch_id, limit, offset }, { deps, key }) {
    const watch = await findWatch(deps.sql, key.account_id, watch_id);
    return { watch_id: watch.id, events: (await listEvents(deps.sql, watch.id, limit, offset)).map(eventResource) };
  },
});

const redeliverEventTool = defineTool({
  name: 'redeliver_watch_event',
  title: 'Deliver a watch event again',
  description:
    'Sends one of the watch’s events again to the watch’s callback_url as it is now (fix the receiver or the URL first), signed as before with the same webhook-id (receivers deduplicate on it), with a fresh round of the retry schedule. Any event: delivered, failed or never configured. Its delivery state is in GET /v1/watches/{watch_id}/events. Free.',
  method: 'POST',
  path: '/v1/watches/{watch_id}/events/{event_id}/redeliver',
  tags: ['watches'],
  status: 202,
  input: z.strictObject({ watch_id: watchId, event_id: z.string().min(1).max(100).describe('the event id (its webhook-id)') }),
  output: EventSchema,
  credits: 0,
  errors: {
    404: 'No watch of your account has that id, or the watch has no such event.',
    409: 'The watch has no callback_url, or a delivery of the event is still under way.',
    503: 'Webhooks are not enabled on this service, or the queue is down.',
  },
  async handler({ watch_id, event_id }, { deps, key }) {
    return eventResource(await redeliverEvent(deps, key.account_id, watch_id, event_id));
  },
});

export const WATCH_TOOLS: Tool[] = [
  createWatchTool,
  listWatchesTool,
  getWatchTool,
  updateWatchTool,
  deleteWatchTool,
  checkWatchTool,
  watchEventsTool,
  redeliverEventTool,
];

/**
 * What the watch routes and the dashboard do with a watch: create (once per Idempotency-Key, within
 * the plan's limit of active watches), read, change its rule or schedule, pause, resume, delete.
 * A change that moves the schedule gives the watch a new slot: the queued entry of the old one
 * finds it gone and does nothing.
 */
import { snapshot, type Tx } from '../../db/client.js';
import type { ToolServices } from '../define-tool.js';
import { checkCallbackUrl } from '../../upstream/callback-url.js';
import { ApiError, Conflict, DependencyDown, InvalidInput } from '../../domain/errors.js';
import { earliestCurrentDate, stayStart } from '../../domain/watch-end.js';
import { once } from '../../platform/idempotency.js';
import { newId } from '../../domain/ids.js';
import type { AuthedKey } from '../../platform/keys.js';
import { planOf } from '../../platform/plans.js';
import { checkResource, watchResource } from './resource.js';
import { ruleProblem, type Rule } from '../../domain/watch-rules.js';
import { periodMs } from '../../domain/watch-schedule.js';
import { leaseSeconds, queueCheck } from '../../jobs/watch-queue.js';
import {
  activeWatches,
  findWatch,
  insertWatch,
  listWatches,
  lockAccountWatches,
  recentChecks,
  updateWatch,
  watchTotals,
  type WatchRow,
} from '../../platform/watches.js';
import type { Operation } from '../../domain/watch-observation.js';
import { targetTool, validateTarget } from './target.js';
import { rangeCreditsMax } from '../compsets/parity-range.js';

type RangeSize = Parameters<typeof rangeCreditsMax>[1];

export interface NewWatch {
  target: { operation: Operation } & Record<string, unknown>;
  rule: Rule;
  every_hours: number;
  callback_url?: string | null;
  name?: string | null;
  ends_at?: string | null;
}

export interface WatchChange {
  name?: string | null;
  rule?: Rule;
  every_hours?: number;
  callback_url?: string | null;
  ends_at?: string | null;
  status?: 'active' | 'paused';
}

/** Refuses a stay already past (nothing left to price) and an end date not in the future. */
function checkDates(deps: Pick<ToolServices, 'config'>, operation: Operation, target: Record<string, unknown>, endsAt: string | null | undefined): void {
  const start = stayStart(operation, target);
  const earliest = earliestCurrentDate(deps.config.WATCH_TODAY);
  const field = operation === 'calendar' || operation === 'parity_range' ? 'start' : 'check_in';
  if (start !== null && start < earliest)
    throw new InvalidInput([
      { type: 'value_error', loc: ['body', 'target', field], msg: `the stay is in the past (before ${earliest}): nothing left to watch`, input: start },
    ]);
  if (endsAt && Date.parse(endsAt) <= Date.now())
    throw new InvalidInput([{ type: 'value_error', loc: ['body', 'ends_at'], msg: 'ends_at must be in the future', input: endsAt }]);
}

function checkRule(rule: Rule, operation: Operation, target: Record<string, unknown>): void {
  const problem = ruleProblem(rule, operation, target);
  if (problem) throw new InvalidInput([{ type: 'value_error', loc: ['body', 'rule', 'type'], msg: problem, input: rule.type }]);
}

async function checkCallback(deps: Pick<ToolServices, 'config'>, url: string | null | undefined): Promise<void> {
  if (!url) return;
  if (!deps.config.WEBHOOK_SIGNING_SECRET) throw new DependencyDown('webhook delivery is not enabled for this service');
  await checkCallbackUrl(url, deps.config.SAFE_FETCH_ALLOW_PRIVATE);
}

/** Refuses one more active watch past the plan's limit; call inside the account's watch lock. */
async function withinPlan(tx: Tx, key: Pick<AuthedKey, 'account_id' | 'plan'>): Promise<void> {
  if (!key.plan) return;
  const limit = planOf(key.plan).active_watches;
  if ((await activeWatches(tx, key.account_id)) >= limit)
    throw new ApiError(403, `active watch limit ${limit} reached for the ${key.plan} plan: pause or delete a watch, or change plan`);
}

export async function createWatch(deps: ToolServices, key: AuthedKey, input: NewWatch, idempotencyKey: string | undefined): Promise<WatchRow> {
  const { operation, ...targetInput } = input.target;
  const tool = targetTool(deps.tools, operation);
  const parsed = validateTarget(tool, targetInput);
  checkRule(input.rule, operation, targetInput);
  checkDates(deps, operation, targetInput, input.ends_at);
  await checkCallback(deps, input.callback_url);
  const create = async (tx: Tx) => {
    await lockAccountWatches(tx, key.account_id);
    await withinPlan(tx, key);
    const now = new Date();
    const watch = await insertWatch(tx, {
      id: newId('watch'),
      account_id: key.account_id,
      key_id: key.id,
      name: input.name ?? null,
      operation,
      target: targetInput,
      rule: input.rule,
      every_hours: input.every_hours,
      callback_url: input.callback_url ?? null,
      // a parity range is paid by its batch's items, not by its (free) submission
      credits_per_check: Math.round(operation === 'parity_range' ? rangeCreditsMax(deps.tools, parsed as RangeSize) : tool.credits.max(parsed)),
      ends_at: input.ends_at ? new Date(input.ends_at) : null,
      // the first check runs at once: it is the baseline the next ones are compared with
      next_check_at: now,
    });
    await queueCheck(deps.queue.boss(), tx, watch, now, leaseSeconds(deps.config, operation, targetInput));
    return watch.id;
  };
  const id = idempotencyKey
    ? (await once(deps.sql, { keyId: key.id, accountId: key.account_id, scope: 'POST /v1/watches', idempotencyKey, body: input }, create)).resourceId
    : await deps.sql.begin(create);
  return findWatch(deps.sql, key.account_id, id);
}

export async function changeWatch(deps: ToolServices, key: Pick<AuthedKey, 'account_id' | 'plan'>, id: string, c: WatchChange): Promise<WatchRow> {
  if (c.callback_url !== undefined) await checkCallback(deps, c.callback_url);
  return deps.sql.begin(async (tx) => {
    await lockAccountWatches(tx, key.account_id);
    const w = await findWatch(tx, key.account_id, id, true);
    if (c.rule) checkRule(c.rule, w.operation, w.target);
    if (c.ends_at) checkDates(deps, w.operation, {}, c.ends_at);
    if (w.status === 'ended' && c.status) throw new Conflict(`the watch has ended (${w.ended_reason}): create a new one`);
    const now = new Date();
    const pausing = c.status === 'paused' && w.status === 'active';
    const resuming = c.status === 'active' && w.status === 'paused';
    if (resuming) await withinPlan(tx, key);
    let next: Date | undefined;
    if (c.every_hours !== undefined && c.every_hours !== w.every_hours) {
      const from = w.last_check_at ?? w.created_at;
      next = new Date(Math.max(now.getTime(), from.getTime() + periodMs(deps.config, c.every_hours)));
    }
    if (resuming) next = new Date(Math.max(now.getTime(), (next ?? w.next_check_at).getTime()));
    const newSlot = pausing || resuming || (next !== undefined && w.status === 'active' && !pausing);
    const updated = await updateWatch(tx, w.id, {
      name: c.name,
      rule: c.rule,
      every_hours: c.every_hours,
      callback_url: c.callback_url,
      ends_at: c.ends_at === undefined ? undefined : c.ends_at ? new Date(c.ends_at) : null,
      status: c.status,
      paused_reason: pausing ? 'paused_by_user' : resuming ? null : undefined,
      next_check_at: next,
      newSlot,
    });
    if (newSlot && updated.status === 'active')
      await queueCheck(deps.queue.boss(), tx, updated, updated.next_check_at, leaseSeconds(deps.config, updated.operation, updated.target));
    return updated;
  });
}

/** The watch resource, with its totals. */
export async function watchAnswer(deps: Pick<ToolServices, 'sql'>, w: WatchRow) {
  return watchResource(w, (await watchTotals(deps.sql, [w.id])).get(w.id));
}

/**
 * One watch of the account with its totals and its latest `checks` checks, from one snapshot. Read
 * apart on the pool, a check committed between the reads showed in the checks while the watch still
 * had the next_check_at it replaced (next_check_at before the last check's checked_at).
 */
export async function readWatch(deps: Pick<ToolServices, 'sql'>, accountId: string, id: string, checks: number) {
  return snapshot(deps.sql, async (tx) => {
    const w = await findWatch(tx, accountId, id);
    const totals = (await watchTotals(tx, [w.id])).get(w.id);
    const latest = checks ? await recentChecks(tx, w.id, checks) : [];
    return { ...watchResource(w, totals), checks: latest.map(checkResource) };
  });
}

/** A page of the account's watches, newest first, each with its totals, from one snapshot. */
export async function readWatches(deps: Pick<ToolServices, 'sql'>, accountId: string, limit: number, offset: number) {
  return snapshot(deps.sql, async (tx) => {
    const rows = await listWatches(tx, accountId, limit, offset);
    const totals = await watchTotals(
      tx,
      rows.map((r) => r.id),
    );
    return rows.map((w) => watchResource(w, totals.get(w.id)));
  });
}

/**
 * The daily digest of an account's watches (`watch.digest`): once per day (a day being 24
 * WATCH_HOUR_S hours) the sweep tells each account what its watches did the day before — what
 * moved (each watch's cheapest price first and last that day), the disparities its compare
 * watches saw last, the rules that fired, the failures and pauses — as one event per callback URL,
 * about the watches that deliver to it (a receiver learns nothing of watches pointed elsewhere;
 * those without a URL share one digest, listed only), all listed at GET /v1/digests and delivered
 * like watch.triggered. A digest exists once per account, day and URL (a unique index), whatever
 * the number of sweeping workers. Only the account's own watches; nothing is stated that no check saw.
 */
import type PgBoss from 'pg-boss';
import type { Config } from '../../config/config.js';
import { newId } from '../../domain/ids.js';
import { queueWatchWebhook } from '../../jobs/watch-queue.js';
import { accountsWithoutDigest, digestFacts, isoOrNull, type CheckRow, type DigestFacts } from '../../platform/watches.js';
import { insertDigest } from '../../platform/watch-events.js';
import type { ServiceDeps } from '../service-deps.js';
import { hotelOf } from './target.js';

/** Watches a digest details (the rest are counted in watches_total). */
const DIGEST_WATCHES = 200;
/** Accounts digested per sweep; the next sweep takes the others. */
const ACCOUNTS_PER_SWEEP = 200;

/** The digest day holding `at` (ms): its number and bounds. */
function digestDay(config: Pick<Config, 'WATCH_HOUR_S'>, at: number): { period: number; from: Date; to: Date } {
  const day = 24 * config.WATCH_HOUR_S * 1000;
  const period = Math.floor(at / day);
  return { period, from: new Date(period * day), to: new Date((period + 1) * day) };
}

const price = (c: CheckRow | null) => (c?.observation.cheapest ? { ...c.observation.cheapest, checked_at: c.created_at.toISOString() } : null);

/** One watch's day as the digest states it (pure). */
function watchDay(f: DigestFacts) {
  const w = f.watch;
  const first = price(f.first);
  const last = price(f.last);
  const comparable = first && last && first.currency === last.currency;
  const parity = (f.last?.parity ?? null) as { status?: string; undercuts?: unknown[]; selling_while_sold_out?: unknown[] } | null;
  const disparity = parity && (parity.status === 'undercut' || (parity.status === 'official_sold_out' && parity.selling_while_sold_out?.length));
  return {
    watch: { id: w.id, name: w.name, operation: w.operation, status: w.status, paused_reason: w.paused_reason, failing_since: isoOrNull(w.failing_since) },
    hotel: hotelOf(w, null),
    checks: f.checks,
    credits: f.credits,
    cheapest_first: first,
    cheapest_last: last,
    moved: comparable ? Math.round((last.total - first.total) * 100) / 100 : null,
    fired: f.events.filter((e) => e.type === 'watch.triggered').length,
    events: f.events.map((e) => ({
      id: e.id,
      type: e.type,
      created_at: e.created_at.toISOString(),
      reason: (e.payload as { data?: { reason?: unknown } }).data?.reason ?? null,
    })),
    disparity: disparity ? parity : null,
    failures: { periods_missed_in_row: w.misses_in_row, periods_missed: w.periods_missed, last_error: w.last_error },
  };
}

/** The digest's data for the account's watches over one day (pure). */
function digestData(facts: DigestFacts[], total: number, day: { from: Date; to: Date }) {
  const watches = facts.map(watchDay);
  return {
    period: { from: day.from.toISOString(), to: day.to.toISOString() },
    summary: {
      watches: total,
      active: facts.filter((f) => f.watch.status === 'active').length,
      checks: watches.reduce((s, w) => s + w.checks, 0),
      credits: watches.reduce((s, w) => s + w.credits, 0),
      fired: watches.reduce((s, w) => s + w.fired, 0),
      moved: watches.filter((w) => w.moved !== null && w.moved !== 0).length,
      disparities: watches.filter((w) => w.disparity).length,
      failing: facts.filter((f) => f.watch.failing_since).length,
      paused: facts.filter((f) => f.watch.status === 'paused').length,
    },
    watches,
    watches_total: total,
  };
}

/** Yesterday's digests of the accounts that have none yet (the watch sweep calls it). */
export async function sendDigests(deps: Pick<ServiceDeps, 'sql' | 'config'>, boss: PgBoss): Promise<void> {
  const today = digestDay(deps.config, Date.now());
  const day = digestDay(deps.config, today.from.getTime() - 1);
  for (const accountId of await accountsWithoutDigest(deps.sql, day.period, day.from, day.to, ACCOUNTS_PER_SWEEP)) {
    const groups = await digestFacts(deps.sql, accountId, day.from, day.to, DIGEST_WATCHES);
    await deps.sql.begin(async (tx) => {
      for (const { callbackUrl: url, facts, total } of groups) {
        const id = newId('evt');
        const payload = { id, type: 'watch.digest', timestamp: day.to.toISOString(), data: digestData(facts, total, day) };
        const made = await insertDigest(tx, { id, accountId, period: day.period, callbackUrl: url, payload });
        if (made && url && deps.config.WEBHOOK_SIGNING_SECRET) await queueWatchWebhook(boss, tx, id);
      }
    });
  }
}

/**
 * A rate shop over a competitor set: one durable calendar job (pg-boss) whose items are the set's
 * properties × lengths of stay, each one calendar window fetched as POST /v1/calendar fetches it
 * (through the shared result cache, charged as a calendar when it prices a night). The shop's row
 * is written in the job's own transaction; its grid is read from the job's items as they finish.
 */
import type PgBoss from 'pg-boss';
import type { Sql } from '../../db/client.js';
import { normalizeCalendarRequest, type CalendarRequestInput, type NormalizedCalendarRequest } from '../../domain/calendar-request.js';
import { shopDates, shopGrid, type ShopCalendar, type ShopProperty } from '../../domain/rate-shop.js';
import { newId } from '../../domain/ids.js';
import { createCalendarJob, readCalendarJob } from '../../jobs/calendar-jobs.js';
import type { ExpiryBounds } from '../../jobs/run-expiry.js';
import { findCompset, insertShop, shopOfJob, type ShopRequest, type ShopRow } from '../../platform/compsets.js';
import type { AuthedKey } from '../../platform/keys.js';

export interface ShopAsk {
  start: string;
  days: number;
  los: number[];
  adults: number;
  currency?: CalendarRequestInput['currency'];
  market?: CalendarRequestInput['market'];
  priority: number;
}

/** The set's properties in grid order: the own hotel first, then the competitors as listed. */
function propertiesOf(set: { own: { property_token: string; name: string }; competitors: { property_token: string; name: string }[] }): ShopProperty[] {
  return [{ ...set.own, own: true }, ...set.competitors.map((c) => ({ ...c, own: false }))];
}

/** The job's items: each property at each length of stay, in grid order. */
function shopItems(properties: ShopProperty[], ask: ShopAsk): NormalizedCalendarRequest[] {
  return properties.flatMap((p) =>
    ask.los.map((los) =>
      normalizeCalendarRequest({
        token: p.property_token,
        start: ask.start,
        days: ask.days,
        los,
        adults: ask.adults,
        currency: ask.currency,
        market: ask.market,
        // a night that sells only for longer is another stay than the grid's: not probed
        probe_min_stay: false,
        is_hostel: false,
        basis: 'cheapest',
        verify_sources: 0,
        label: `${p.own ? 'own' : 'competitor'}: ${p.name} (${los} night${los === 1 ? '' : 's'})`,
      }),
    ),
  );
}

export async function startShop(
  sql: Sql,
  boss: PgBoss,
  key: AuthedKey,
  compsetId: string,
  ask: ShopAsk,
  opts: { idempotencyKey: string; expiry: ExpiryBounds },
): Promise<ShopRow> {
  const set = await findCompset(sql, key.account_id, compsetId);
  const properties = propertiesOf(set);
  const items = shopItems(properties, ask);
  const request: ShopRequest = { start: ask.start, days: ask.days, los: ask.los, adults: ask.adults, currency: items[0].currency, market: items[0].market };
  const { id: jobId } = await createCalendarJob(sql, boss, {
    key,
    idempotencyKey: opts.idempotencyKey,
    scope: `POST /v1/compsets/${compsetId}/shops`,
    body: ask,
    items,
    priority: ask.priority,
    callbackUrl: null,
    expiry: opts.expiry,
    withJob: (tx, job_id) => insertShop(tx, { id: newId('rateshop'), account_id: key.account_id, compset_id: compsetId, job_id, request, properties }),
  });
  return shopOfJob(sql, key.account_id, jobId);
}

interface CalendarRate {
  date: string;
  nights: number;
  rate_total: number | null;
  currency: string | null;
  provenance: ShopCalendar['rates'][number]['provenance'];
}

/** The shop with its job's progress and its grid as far as the job has come. */
export async function readShop(sql: Sql, accountId: string, shop: ShopRow) {
  const job = await readCalendarJob(sql, accountId, shop.job_id, true);
  const calendars: ShopCalendar[] = job.items.map((it) => ({
    property_token: it.token,
    los: Number(it.request.los),
    status: it.status,
    rates: ((it.result?.rates ?? []) as CalendarRate[]).map((r) => ({
      date: r.date,
      nights: r.nights,
      rate_total: r.rate_total,
      currency: r.currency,
      provenance: r.provenance,
    })),
  }));
  const rows = shopGrid(shop.properties, shopDates(shop.request.start, shop.request.days), shop.request.los, calendars);
  return {
    id: shop.id,
    compset_id: shop.compset_id,
    job_id: shop.job_id,
    poll_url: `/v1/compsets/${shop.compset_id}/shops/${shop.id}`,
    status: job.status,
    items_total: job.items_total,
    items_succeeded: job.items_succeeded,
    items_failed: job.items_failed,
    created_at: shop.created_at.toISOString(),
    finished_at: job.finished_at,
    request: shop.request,
    properties: shop.properties,
    failures: job.items.filter((it) => it.status === 'failed').map((it) => ({ property_token: it.token, los: Number(it.request.los), error: it.error })),
    rows,
  };
}

/**
 * A rate shop over a competitor set: one durable calendar job (pg-boss) whose items are the set's
 * properties × lengths of stay, each one calendar window fetched as POST /v1/calendar fetches it
 * (through the shared result cache, charged as a calendar when it prices a night). A per-seller
 * shop (`sellers`) also has one offers item per property, check-in date and length of stay, run as
 * POST /v1/offers runs it (the sellers the property's page lists for that stay; cache and charge as
 * that call). The shop's row is written in the job's own transaction; its grid is read from the
 * job's items as they finish.
 */
import type PgBoss from 'pg-boss';
import type { Sql } from '../../db/client.js';
import { normalizeCalendarRequest, type CalendarRequestInput, type NormalizedCalendarRequest } from '../../domain/calendar-request.js';
import { newId } from '../../domain/ids.js';
import { SELLER_CSV_HEADER, sellerCsvRows, withSellers, type SellerGridRow, type ShopStay, type StayOffer } from '../../domain/shop-sellers.js';
import { GRID_CSV_HEADER, gridCsvRows, shopDates, shopGrid, type GridRow, type ShopCalendar, type ShopProperty } from '../../domain/rate-shop.js';
import { csvAnswer } from '../csv-answer.js';
import { InvalidInput } from '../../domain/errors.js';
import { createCalendarJob, jobItems, jobsProgress, type JobItem, type JobProgress, type JobStatus, type OperationItem } from '../../jobs/calendar-jobs.js';
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
  /** Each stay's offers by seller too. */
  sellers: boolean;
}

/** Stays (properties × check-in dates × lengths of stay) a per-seller shop prices at most: each is one property page (~3 MB). */
export const MAX_SELLER_STAYS = 400;

/** What one calendar and one stay's offers cost at most (the operations' own prices: POST /v1/calendar, POST /v1/offers). */
export interface ShopCosts {
  calendar: number;
  offers: number;
}

/** The operations' prices as their descriptors state them. */
export function shopCosts(tools: { name: string; credits: { base: number } }[]): ShopCosts {
  const cost = (name: string) => tools.find((t) => t.name === name)?.credits.base ?? 0;
  return { calendar: cost('get_hotel_calendar'), offers: cost('get_hotel_offers') };
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

/**
 * A per-seller shop's offers items: each property at each check-in date and length of stay, as
 * POST /v1/offers takes it (the calendar's market, currency and party; one page per stay: no
 * second device profile, no re-fetch for a seller missing from the page).
 */
function offersItems(properties: ShopProperty[], ask: ShopAsk, calendar: NormalizedCalendarRequest): OperationItem[] {
  return shopDates(ask.start, ask.days).flatMap((date) =>
    properties.flatMap((p) =>
      ask.los.map((los) => ({
        kind: 'offers' as const,
        token: p.property_token,
        label: `sellers: ${p.name} ${date} (${los} night${los === 1 ? '' : 's'})`,
        input: offersInput(p.property_token, date, los, { adults: ask.adults, market: calendar.market, currency: calendar.currency }),
        seconds: 40,
      })),
    ),
  );
}

/** One stay's POST /v1/offers input as a per-seller shop runs it (the same call shows that stay's sellers again). */
function offersInput(token: string, date: string, los: number, r: Pick<ShopRequest, 'adults' | 'market' | 'currency'>) {
  return { token, check_in: date, nights: los, adults: r.adults, market: r.market, currency: r.currency, require_sources: [] as string[] };
}

/** A per-seller shop of more stays than MAX_SELLER_STAYS is refused before anything is queued. */
function checkSellerStays(properties: ShopProperty[], ask: ShopAsk): void {
  const stays = properties.length * ask.days * ask.los.length;
  if (!ask.sellers || stays <= MAX_SELLER_STAYS) return;
  throw new InvalidInput([
    {
      type: 'value_error',
      loc: ['body', 'sellers'],
      msg: `a per-seller shop prices at most ${MAX_SELLER_STAYS} stays (properties × days × lengths of stay); this one is ${properties.length} × ${ask.days} × ${ask.los.length} = ${stays}: shop fewer days or lengths`,
      input: true,
    },
  ]);
}

export async function startShop(
  sql: Sql,
  boss: PgBoss,
  key: AuthedKey,
  compsetId: string,
  ask: ShopAsk,
  opts: { idempotencyKey: string; expiry: ExpiryBounds; costs: ShopCosts },
): Promise<ShopRow> {
  const set = await findCompset(sql, key.account_id, compsetId);
  const properties = propertiesOf(set);
  checkSellerStays(properties, ask);
  const items = shopItems(properties, ask);
  const stays = ask.sellers ? offersItems(properties, ask, items[0]) : [];
  const request: ShopRequest = {
    start: ask.start,
    days: ask.days,
    los: ask.los,
    adults: ask.adults,
    currency: items[0].currency,
    market: items[0].market,
    ...(ask.sellers ? { sellers: true } : {}),
  };
  // every calendar and every stay charged: the most the shop costs
  const creditsMax = items.length * opts.costs.calendar + stays.length * opts.costs.offers;
  const { id: jobId } = await createCalendarJob(sql, boss, {
    key,
    idempotencyKey: opts.idempotencyKey,
    scope: `POST /v1/compsets/${compsetId}/shops`,
    body: ask,
    items,
    operationItems: stays,
    priority: ask.priority,
    callbackUrl: null,
    expiry: opts.expiry,
    withJob: (tx, job_id) =>
      insertShop(tx, { id: newId('rateshop'), account_id: key.account_id, compset_id: compsetId, job_id, request, properties, credits_max: creditsMax }),
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

/** A shop's request and its batch's progress: how a set's list shows it, and the head of its answer. */
export function shopSummary(shop: Pick<ShopRow, 'id' | 'compset_id' | 'job_id' | 'request' | 'credits_max' | 'created_at'>, job: JobProgress) {
  return {
    id: shop.id,
    compset_id: shop.compset_id,
    job_id: shop.job_id,
    poll_url: `/v1/compsets/${shop.compset_id}/shops/${shop.id}`,
    status: job.status as JobStatus,
    items_total: job.items_total,
    items_succeeded: job.items_succeeded,
    items_failed: job.items_failed,
    credits_max: shop.credits_max,
    created_at: shop.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
    // `sellers` false for a shop of calendars only, also one of before
    request: { ...shop.request, sellers: shop.request.sellers ?? false },
  };
}

/** A per-seller shop's stays from its offers items. */
function stayResults(items: JobItem[]): ShopStay[] {
  return items.flatMap((it) =>
    it.kind === 'offers'
      ? [
          {
            property_token: String(it.request.token),
            date: String(it.request.check_in),
            los: Number(it.request.nights),
            status: it.status,
            offers: ((it.result?.offers ?? []) as StayOffer[]).map((o) => ({
              source: o.source,
              raw_source: o.raw_source,
              is_official: o.is_official,
              total: o.total,
              currency: o.currency,
              link: o.link,
              provenance: o.provenance,
            })),
          },
        ]
      : [],
  );
}

/** The shop with its job's progress and its grid as far as the job has come. */
export async function readShop(sql: Sql, accountId: string, shop: ShopRow) {
  // the job is written in the shop's own transaction: it is there
  const job = (await jobsProgress(sql, accountId, [shop.job_id])).get(shop.job_id)!;
  const items = await jobItems(sql, accountId, shop.job_id);
  const calendars: ShopCalendar[] = items
    .filter((it) => it.kind === 'calendar')
    .map((it) => ({
      property_token: String(it.request.token),
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
  const grid = shopGrid(shop.properties, shopDates(shop.request.start, shop.request.days), shop.request.los, calendars);
  const rows: GridRow[] | SellerGridRow[] = shop.request.sellers ? withSellers(grid, stayResults(items)) : grid;
  return {
    ...shopSummary(shop, job),
    properties: shop.properties,
    failures: items
      .filter((it) => it.status === 'failed')
      .map((it) =>
        it.kind === 'offers'
          ? { property_token: String(it.request.token), los: Number(it.request.nights), date: String(it.request.check_in), error: it.error }
          : { property_token: String(it.request.token), los: Number(it.request.los), error: it.error },
      ),
    rows,
  };
}

/** A shop's grid as CSV (the REST route's and the dashboard's download): one line per cell, or per seller of each cell in a per-seller shop. */
export function shopCsv(shop: { id: string; rows: GridRow[] | SellerGridRow[] }) {
  const rows = shop.rows;
  const sellerRows = rows.length > 0 && rows.every((r) => r.cells.every((c) => 'sellers' in c)) ? (rows as SellerGridRow[]) : null;
  return sellerRows
    ? csvAnswer(`${shop.id}.csv`, SELLER_CSV_HEADER, sellerCsvRows(sellerRows))
    : csvAnswer(`${shop.id}.csv`, GRID_CSV_HEADER, gridCsvRows(rows));
}

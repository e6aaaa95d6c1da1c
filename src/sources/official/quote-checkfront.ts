/**
 * Checkfront: the vendor's documented API 3.0 (Checkfront/API `docs/ref/item.rst`), asked without
 * a key: "If the Public API is enabled, non-authenticated users can make requests to the /item …
 * end points" (an account that has not enabled it refuses, 401/403: a 502 naming the status).
 * Each account is served on its own host, `<account>.checkfront.com` (config/hosts.ts), the account
 * being the first label of the hotel's booking link or the `host` of its booking-plugin snippet.
 *
 * `GET /api/3.0/item?start_date&end_date (YYYYMMDD)&param[adults]&param[children]` answers a "rated"
 * inventory: `{locale: {currency}, query, items: {<id>: {item_id, name, unit, days, param: {<id>:
 * {lbl, qty}}, rate: {status, available, sub_total, summary, dates}}}}` (the documented rated item,
 * one per item in the list public clients read). Booking parameters are the account's own
 * (`param[adults]` is the documentation's example, not a fixed name), so an item is priced only
 * when its reply states the asked adults and children under those names and the asked nights as
 * its `days`; any other item is listed, not priced. `sub_total` is the item's price before the
 * taxes a booking adds, which the rated reply does not state.
 */
import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, obj, text, type JsonObject } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

const ITEMS = '/api/3.0/item';

type CheckfrontStay = Pick<EngineStay, 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children'>;

const compact = (date: string) => date.replace(/-/g, '');

export function checkfrontItemsUrl(base: string, stay: CheckfrontStay): string {
  const q = new URLSearchParams({
    start_date: compact(stay.checkIn),
    end_date: compact(stay.checkOut),
    'param[adults]': String(stay.adults),
    'param[children]': String(stay.children),
  });
  return `${base}${ITEMS}?${q.toString()}`;
}

/** Whether the item's reply states the asked party under the parameter names asked. */
function partyStated(item: JsonObject, stay: CheckfrontStay): boolean {
  const adults = numeric(item, 'param', 'adults', 'qty');
  const children = numeric(item, 'param', 'children', 'qty');
  return adults === stay.adults && (stay.children === 0 ? (children ?? 0) === 0 : children === stay.children);
}

function offerOf(item: JsonObject, currency: string | null, stay: CheckfrontStay): EngineRoomOffer {
  const rate = obj(item, 'rate');
  const status = nonEmptyText(rate, 'status');
  const subTotal = numeric(rate, 'sub_total');
  const priced = subTotal != null && subTotal > 0 && partyStated(item, stay) && numeric(item, 'days') === stay.nights;
  return {
    room_id: text(item, 'item_id'),
    room_name: nonEmptyText(item, 'name'),
    rate_name: null,
    rooms_available: numeric(rate, 'available'),
    total: priced ? subTotal : null,
    nightly: null,
    taxes: null,
    ...UNSTATED,
    currency,
    // AVAILABLE is the documented status of an item that can be booked; another status it states is not
    bookable: status == null ? null : status.toUpperCase() === 'AVAILABLE' ? (priced ? true : null) : false,
    upstream_rate_id: null,
    price_basis: 'stay_sub_total_before_booking_taxes_as_quoted',
    derivation: 'upstream',
  };
}

/** One offer per rated item of the list reply (`items`, keyed by id or listed), or of a single-item reply (`item`). */
export function parseCheckfrontItems(body: string, stay: CheckfrontStay): EngineRoomOffer[] {
  const reply = engineJson(body, 'checkfront', 'item');
  if (!isObject(reply)) throw new UpstreamContractChanged('official', 'checkfront item reply is not an object');
  const status = nonEmptyText(reply, 'request', 'status');
  if (status && status.toUpperCase() !== 'OK') throw new UpstreamFailed(`CheckfrontStatus ${status.slice(0, 40)}`, 'upstream_error');
  const list = isObject(reply.items) ? Object.values(reply.items) : Array.isArray(reply.items) ? reply.items : isObject(reply.item) ? [reply.item] : null;
  if (!list) throw new UpstreamContractChanged('official', 'checkfront reply without items');
  const currency = nonEmptyText(reply, 'locale', 'currency')?.toUpperCase() ?? null;
  return list.filter(isObject).map((item) => {
    if (!text(item, 'item_id')) throw new UpstreamContractChanged('official', 'checkfront item without item_id');
    return offerOf(item, currency, stay);
  });
}

export const checkfront: PricedEngine = {
  id: 'checkfront',
  endpoints: [`${ITEMS}?start_date&end_date&param[adults]&param[children]`],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  async quote(stay, call, { base }) {
    const reply = await call(checkfrontItemsUrl(base, stay), { method: 'GET', headers: { accept: 'application/json' } });
    assertEngineOk(reply);
    return parseCheckfrontItems(reply.text, stay);
  },
};

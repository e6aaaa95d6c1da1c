/**
 * Little Hotelier (SiteMinder's engine for small properties): the public rates feed of a property's
 * booking page, as public clients read it (test/fixtures/README.md), keyed by the slug of the
 * `<region>.littlehotelier.com/properties/<slug>` link and asked on that link's regional host:
 * `GET /api/v1/properties/<slug>/rates.json?start_date&end_date` → `[{name, rate_plans: [{id, name,
 * rate_plan_dates: [{id, date, rate, min_stay, max_stay, stop_online_sell, close_to_arrival,
 * close_to_departure, available}]}]}]`, one date per night from start_date to end_date inclusive
 * (a client asks start = end for one night), so end_date is the stay's last night. The older
 * Booking Button feed of the same vendor lists `room_types[].room_type_dates[]` with the same date
 * fields, read the same way. The stay total is the sum of the nightly rates when every night has
 * one; the feed states no currency, no taxes and no party size (the party is not sent).
 */
import { addDays } from '../../domain/dates.js';
import { UpstreamContractChanged } from '../../domain/errors.js';
import { bool, isObject, nonEmptyText, numeric, objs, stringText, text, type JsonObject } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';
import { stayNights } from './quote-cloudbeds.js';

export function littleHotelierRatesUrl(base: string, stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut'>): string {
  const q = new URLSearchParams({ start_date: stay.checkIn, end_date: addDays(stay.checkOut, -1) });
  return `${base}/api/v1/properties/${encodeURIComponent(stay.propertyCode)}/rates.json?${q.toString()}`;
}

/** The two list shapes: rate plans (Little Hotelier) or room types (the older Booking Button feed). */
const LISTS = [
  { list: 'rate_plans', dates: 'rate_plan_dates', names: 'rate' },
  { list: 'room_types', dates: 'room_type_dates', names: 'room' },
] as const;

function offerOf(item: JsonObject, dates: JsonObject[], names: 'rate' | 'room', stay: Pick<EngineStay, 'checkIn' | 'nights'>): EngineRoomOffer {
  const nights = stayNights(stay.checkIn, stay.nights);
  const byDate = new Map(dates.map((d) => [stringText(d, 'date'), d]));
  const rows = nights.map((n) => byDate.get(n));
  const rates = rows.map((r) => numeric(r, 'rate'));
  const complete = rows.every(Boolean) && rates.every((r) => r != null && r > 0);
  const available = rows.map((r) => numeric(r, 'available'));
  const first = rows[0];
  const minStay = numeric(first, 'min_stay');
  const maxStay = numeric(first, 'max_stay');
  const stated = complete && available.every((a) => a != null);
  const bookable = stated
    ? available.every((a) => a > 0) &&
      rows.every((r) => bool(r, 'stop_online_sell') !== true) &&
      bool(first, 'close_to_arrival') !== true &&
      (minStay == null || minStay <= stay.nights) &&
      (maxStay == null || maxStay === 0 || maxStay >= stay.nights)
    : complete
      ? null
      : false;
  const nightly = complete ? (rates as number[]) : null;
  const id = text(item, 'id');
  const name = nonEmptyText(item, 'name');
  return {
    room_id: id,
    room_name: names === 'room' ? name : null,
    rate_name: names === 'rate' ? name : null,
    rooms_available: stated ? Math.min(...available) : null,
    total: nightly ? Number(nightly.reduce((a, b) => a + b, 0).toFixed(6)) : null,
    nightly,
    taxes: null,
    ...UNSTATED,
    currency: null,
    bookable,
    upstream_rate_id: id || null,
    price_basis: 'stay_total_sum_of_nightly',
    derivation: 'sum_of_upstream_nightly_rates',
  };
}

/** One offer per rate plan (or room type) of the feed; a night missing or closed makes it not bookable. */
export function parseLittleHotelierRates(body: string, stay: Pick<EngineStay, 'checkIn' | 'nights'>): EngineRoomOffer[] {
  const reply = engineJson(body, 'little-hotelier', 'rates');
  if (!Array.isArray(reply)) throw new UpstreamContractChanged('official', 'little-hotelier rates is not a list');
  const offers: EngineRoomOffer[] = [];
  for (const property of reply.filter(isObject)) {
    const shape = LISTS.find((l) => Array.isArray(property[l.list]));
    if (!shape) throw new UpstreamContractChanged('official', 'little-hotelier rates: no rate_plans or room_types list');
    for (const item of objs(property, shape.list)) {
      if (!text(item, 'id') && !nonEmptyText(item, 'name')) continue;
      offers.push(offerOf(item, objs(item, shape.dates), shape.names, stay));
    }
  }
  return offers;
}

export const littleHotelier: PricedEngine = {
  id: 'little-hotelier',
  endpoints: ['/api/v1/properties/<slug>/rates.json'],
  sendsCurrency: false,
  party: { children: false, rooms: false },
  async quote(stay, call, { base }) {
    const reply = await call(littleHotelierRatesUrl(base, stay), { method: 'GET', headers: { accept: 'application/json' } });
    assertEngineOk(reply);
    return parseLittleHotelierRates(reply.text, stay);
  },
};

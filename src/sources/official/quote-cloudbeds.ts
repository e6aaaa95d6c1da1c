/**
 * Cloudbeds: the hosted booking engine's own public calls (no key), as a public booking-engine
 * client makes them (its zod schema, 2025-26; not a vendor contract):
 * 1. `POST https://hotels.cloudbeds.com/booking/property_info` (form) with the `property_code` of
 *    the `/reservation/<code>` link → `{success, data: {property_id, …}}`;
 * 2. `POST https://hotels.cloudbeds.com/booking/rooms` (form) with `checkin`, `checkout`,
 *    `currency_code`, `lang`, `widget_property=<property_id>` → `{total, room_types: [{room_type_id,
 *    rate_id, room_type_name, rate_basic, detailed_rates: [{date, rate}], remaining,
 *    num_available_now, max_adults, …}], …}`; an older client reads `accomodation_types` (sic).
 * The stay total is the sum of the nightly `detailed_rates` only when there is exactly one rate
 * per night of the stay; `rate_basic` is never used (its meaning is not established). The reply
 * does not state its currency; the party size is not sent, so rooms too small are left out.
 */
import { addDays } from '../../domain/dates.js';
import { NotFound, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';
import { isObject, nonEmptyText, numeric, stringText, text, type JsonObject } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED } from './engine-shared.js';

const PROPERTY_INFO = '/booking/property_info';
const ROOMS = '/booking/rooms';
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' };

/** Keys that may hold the room list, newest first. */
const ROOM_LISTS = ['room_types', 'accomodation_types'] as const;
/** Top-level keys of a rooms reply, to tell "no room list" (nothing to sell) from another payload. */
const ROOMS_REPLY_KEYS = ['total', 'currency_rate', 'website_source_id', 'ma_rates'];

const ROOM = {
  id: 'room_type_id',
  rateId: 'rate_id',
  names: ['room_type_name', 'room_type_title'],
  nightly: 'detailed_rates',
  available: ['remaining', 'num_available_now'],
  maxAdults: ['max_adults', 'max_guests'],
} as const;

function json(body: string, what: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    // not JSON at all is not a reply of the expected kind: unusable (502), not a changed contract
    throw new UpstreamFailed(`UnreadableReply (cloudbeds ${what})`, 'unusable');
  }
}

const firstNum = (row: JsonObject, keys: readonly string[]) => keys.map((k) => numeric(row[k])).find((v) => v != null) ?? null;

export function cloudbedsPropertyInfoRequest(propertyCode: string): SafeFetchInit {
  const form = new URLSearchParams({ booking_engine_source: 'hosted', iframe: 'false', lang: 'en', property_code: propertyCode });
  return { method: 'POST', headers: FORM_HEADERS, body: form.toString() };
}

export function cloudbedsRoomsRequest(propertyId: string, stay: Pick<EngineStay, 'checkIn' | 'checkOut' | 'currency'>): SafeFetchInit {
  const form = new URLSearchParams({ checkin: stay.checkIn, checkout: stay.checkOut });
  if (stay.currency) form.set('currency_code', stay.currency);
  form.set('lang', 'en');
  form.set('widget_property', propertyId);
  return { method: 'POST', headers: FORM_HEADERS, body: form.toString() };
}

/** The numeric property id behind a booking-link code; `success: false` or no id is a 404. */
export function parseCloudbedsPropertyInfo(body: string, propertyCode: string): { propertyId: string } {
  const reply = json(body, 'property_info');
  if (!isObject(reply)) throw new UpstreamContractChanged('official', 'cloudbeds property_info object');
  const propertyId = reply.success === true ? text(reply.data, 'property_id') : '';
  if (!propertyId) throw new NotFound(`cloudbeds property ${propertyCode} not found`);
  return { propertyId };
}

/** The stay's nights, `YYYY-MM-DD`, check-in first. */
export function stayNights(checkIn: string, nights: number): string[] {
  return Array.from({ length: nights }, (_, i) => addDays(checkIn, i));
}

/** One positive rate per night of the stay, in night order; null when the list is anything else. */
export function nightlyRates(rows: unknown, nights: readonly string[]): number[] | null {
  if (!Array.isArray(rows) || rows.length !== nights.length) return null;
  const byDate = new Map<string, number>();
  for (const r of rows) {
    const date = stringText(r, 'date');
    const rate = numeric(r, 'rate');
    if (!date || rate == null || rate <= 0 || byDate.has(date)) return null;
    byDate.set(date, rate);
  }
  const out = nights.map((d) => byDate.get(d));
  return out.every((v) => v != null) ? out : null;
}

/** Offers of a `booking/rooms` reply for the stay; rooms whose stated maximum is below the party are left out. */
export function parseCloudbedsRooms(body: string, stay: Pick<EngineStay, 'checkIn' | 'nights' | 'adults'>): EngineRoomOffer[] {
  const reply = json(body, 'rooms');
  if (!isObject(reply)) throw new UpstreamContractChanged('official', 'cloudbeds rooms object');
  if (reply.success === false)
    throw new UpstreamContractChanged('official', `cloudbeds rooms refused: ${text(reply.message).slice(0, 120) || 'success false'}`);
  const key = ROOM_LISTS.find((k) => k in reply);
  if (!key) {
    if (ROOMS_REPLY_KEYS.some((k) => k in reply)) return [];
    throw new UpstreamContractChanged('official', 'cloudbeds rooms: no room_types list');
  }
  const list = reply[key];
  if (!Array.isArray(list)) throw new UpstreamContractChanged('official', `cloudbeds rooms: ${key} is not a list`);
  const nights = stayNights(stay.checkIn, stay.nights);
  const offers: EngineRoomOffer[] = [];
  for (const row of list) {
    if (!isObject(row)) continue;
    const roomId = text(row[ROOM.id]);
    if (!roomId) continue;
    const maxAdults = firstNum(row, ROOM.maxAdults);
    if (maxAdults != null && maxAdults < stay.adults) continue;
    const nightly = nightlyRates(row[ROOM.nightly], nights);
    const total = nightly ? Number(nightly.reduce((a, b) => a + b, 0).toFixed(6)) : null;
    const available = firstNum(row, ROOM.available);
    offers.push({
      room_id: roomId,
      room_name: ROOM.names.map((k) => nonEmptyText(row[k])).find((v) => v != null) ?? null,
      rate_name: null,
      rooms_available: available,
      total,
      nightly,
      taxes: null,
      ...UNSTATED,
      currency: null,
      bookable: available != null ? available > 0 : null,
      upstream_rate_id: text(row[ROOM.rateId]) || null,
      price_basis: 'stay_total_sum_of_nightly',
      derivation: 'sum_of_upstream_nightly_rates',
    });
  }
  return offers;
}

export const cloudbeds: PricedEngine = {
  id: 'cloudbeds',
  endpoints: [PROPERTY_INFO, ROOMS],
  sendsCurrency: true,
  party: { children: false, rooms: false },
  async quote(stay, call, { base }) {
    const info = await call(base + PROPERTY_INFO, cloudbedsPropertyInfoRequest(stay.propertyCode));
    if (info.status >= 400) throw new UpstreamFailed(`EngineHttp${info.status}`);
    const { propertyId } = parseCloudbedsPropertyInfo(info.text, stay.propertyCode);
    const rooms = await call(base + ROOMS, cloudbedsRoomsRequest(propertyId, stay));
    if (rooms.status >= 400) throw new UpstreamFailed(`EngineHttp${rooms.status}`);
    return parseCloudbedsRooms(rooms.text, stay);
  },
};

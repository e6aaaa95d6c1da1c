/**
 * Profitroom: the booking front end's public REST API (no key), as public price clients call it
 * (test/fixtures/README.md), keyed by the site key of the `booking.profitroom.com/<lang>/<siteKey>`
 * link:
 * - `GET /api/<siteKey>/availability?checkIn&checkOut&occupancy[0][adults]&lang` → groups
 *   `[{occupancy, proposals: [{proposal: {OfferID, RoomID, price {amount, currency}, originalPrice,
 *   stay {from, to}, discounts [{type, name, amount}]}, roomCount}]}]`; `price.amount` is the stay
 *   total (the public clients divide it by the nights for a nightly figure);
 * - `GET /api/<siteKey>/rooms?lang` → `[{id, translations [{locale, messages [{fieldName, value}]}]}]`;
 * - `GET /api/<siteKey>/offers?status=1&lang` → `[{id, profiles [{type ('nonref'), deposit}], translations}]`.
 * Names come from the room and offer lists by id; an id the lists do not carry keeps its name null
 * (older accounts number rooms differently in the two lists). Whether the amount includes taxes is
 * not stated. Children are not sent: the request states them by age bands the caller does not give.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, isObject, numeric, objs, stringText, text, type JsonObject } from '../../domain/json.js';
import { OFFICIAL_ENGINE_HOSTS } from '../../config/hosts.js';
import { assertStayAnswered } from '../shared/stay.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

const api = (base: string, siteKey: string, what: string) => `${base}/api/${encodeURIComponent(siteKey)}/${what}`;

export function profitroomAvailabilityUrl(base: string, stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut' | 'adults' | 'language'>): string {
  const q = new URLSearchParams({ checkIn: stay.checkIn, checkOut: stay.checkOut, 'occupancy[0][adults]': String(stay.adults), lang: stay.language });
  return `${api(base, stay.propertyCode, 'availability')}?${q.toString()}`;
}

/** The name (or another field) of a `translations` list in the asked language, else English, else the first. */
function translated(item: JsonObject, field: string, language: string): string | null {
  const list = objs(item, 'translations');
  const pick = [language, 'en'].map((l) => list.find((t) => stringText(t, 'locale').toLowerCase().startsWith(l))).find(Boolean) ?? list[0];
  const message = objs(pick, 'messages').find((m) => stringText(m, 'fieldName') === field);
  return message ? stringText(message, 'value') || null : null;
}

/** id → name of the `rooms` or `offers` list; anything but a list is a contract change. */
export function parseProfitroomNames(body: string, what: 'rooms' | 'offers', language: string): Map<string, { name: string | null; item: JsonObject }> {
  const list = engineJson(body, 'profitroom', what);
  if (!Array.isArray(list)) throw new UpstreamContractChanged('official', `profitroom ${what} is not a list`);
  const out = new Map<string, { name: string | null; item: JsonObject }>();
  for (const item of list.filter(isObject)) {
    const id = text(item, 'id');
    if (id) out.set(id, { name: translated(item, 'name', language), item });
  }
  return out;
}

/** Whether an offer's booking profiles say it is non-refundable (`type: 'nonref'`); null when they do not say. */
function refundableOf(offer: JsonObject | undefined): boolean | null {
  const types = objs(offer, 'profiles').map((p) => stringText(p, 'type').toLowerCase());
  return types.length && types.every((t) => t === 'nonref') ? false : null;
}

export interface ProfitroomNames {
  rooms: Map<string, { name: string | null; item: JsonObject }>;
  offers: Map<string, { name: string | null; item: JsonObject }>;
}

/** One offer per proposal of the availability reply (a room under one rate); every proposal is bookable. */
export function parseProfitroomAvailability(
  body: string,
  stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut' | 'adults' | 'language'>,
  names: ProfitroomNames,
): EngineRoomOffer[] {
  const groups = engineJson(body, 'profitroom', 'availability');
  if (!Array.isArray(groups)) throw new UpstreamContractChanged('official', 'profitroom availability is not a list');
  const offers: EngineRoomOffer[] = [];
  for (const group of groups.filter(isObject)) {
    for (const entry of objs(group, 'proposals')) {
      const p = entry.proposal;
      if (!isObject(p)) continue;
      assertStayAnswered(stay, { checkIn: stringText(p, 'stay', 'from') || null, checkOut: stringText(p, 'stay', 'to') || null });
      const roomId = text(p, 'RoomID');
      const offerId = text(p, 'OfferID');
      const amount = numeric(p, 'price', 'amount');
      if (!roomId) continue;
      const offer = names.offers.get(offerId);
      const remarks = arr(p, 'discounts')
        .map((d) => stringText(d, 'name'))
        .filter(Boolean);
      offers.push({
        room_id: roomId,
        room_name: names.rooms.get(roomId)?.name ?? null,
        rate_name: offer?.name ?? null,
        rooms_available: numeric(entry, 'roomCount'),
        total: amount != null && amount > 0 ? amount : null,
        nightly: null,
        taxes: null,
        ...UNSTATED,
        currency: stringText(p, 'price', 'currency').toUpperCase() || null,
        refundable: refundableOf(offer?.item),
        discount_remarks: remarks,
        booking_url: profitroomStayLink(stay),
        bookable: amount != null && amount > 0,
        upstream_rate_id: offerId || null,
        price_basis: 'stay_total_as_quoted',
        derivation: 'upstream',
      });
    }
  }
  return offers;
}

/** The public booking page on the stay (the price list of offers, as the public clients open it). */
function profitroomStayLink(stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut' | 'adults' | 'language'>): string {
  const q = new URLSearchParams({ 'check-in': stay.checkIn, 'check-out': stay.checkOut, r1_adults: String(stay.adults) });
  return `${OFFICIAL_ENGINE_HOSTS.profitroom.url}/${stay.language}/${encodeURIComponent(stay.propertyCode)}/pricelist/offers/?${q.toString()}`;
}

export const profitroom: PricedEngine = {
  id: 'profitroom',
  endpoints: ['/api/<siteKey>/availability', '/api/<siteKey>/rooms', '/api/<siteKey>/offers'],
  sendsCurrency: false,
  party: { children: false, rooms: false },
  async quote(stay, call, { base }) {
    const get = { method: 'GET' as const, headers: { accept: 'application/json' } };
    const lang = new URLSearchParams({ lang: stay.language });
    const [availability, rooms, offers] = await Promise.all([
      call(profitroomAvailabilityUrl(base, stay), get),
      call(`${api(base, stay.propertyCode, 'rooms')}?${lang.toString()}`, get),
      call(`${api(base, stay.propertyCode, 'offers')}?status=1&${lang.toString()}`, get),
    ]);
    for (const reply of [availability, rooms, offers]) assertEngineOk(reply);
    const names = { rooms: parseProfitroomNames(rooms.text, 'rooms', stay.language), offers: parseProfitroomNames(offers.text, 'offers', stay.language) };
    return parseProfitroomAvailability(availability.text, stay, names);
  },
};

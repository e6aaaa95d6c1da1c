/**
 * Smoobu: the vendor's documented API (login.smoobu.com; test/fixtures/README.md), keyed by the
 * customer id of the account's booking-tool embed (`login.smoobu.com/<lang>/booking-tool/iframe/<id>`).
 * The API is opened with the account's own key and secret, so a Smoobu account is priced only when
 * OFFICIAL_SMOOBU_KEYS holds them (config/engine-credentials.ts): a hotel or group pricing its own
 * sites. Requests are signed (HMAC-SHA256 of `METHOD\n/path\nsortedQuery\nTIMESTAMP\nNONCE\n
 * sha256hex(body)\nAPI_KEY`, base64, in `X-Signature` beside `X-API-Key`, `X-Timestamp`, `X-Nonce`):
 * the key-only `Api-Key` header was retired on 2026-10-31.
 *
 * `GET /api/apartments` → `{apartments: [{id, name}]}` names the units; `POST
 * /booking/checkApartmentAvailability` `{arrivalDate, departureDate, apartments: [] (every unit),
 * customerId, guests}` → `{availableApartments: [id], prices: {<id>: {price, currency}},
 * errorMessages: {<id>: {errorCode, message, minimumLengthOfStay?, numberOfGuest?, …}}}` (an empty
 * map may come as `[]`): `price` is the stay's total price for an available unit; a unit with an
 * error message (too many guests, minimum stay, arrival day, lead time) is not bookable. The party
 * is stated as guests (adults and children alike).
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { InvalidInput, UpstreamContractChanged } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, obj, text, type JsonObject } from '../../domain/json.js';
import type { SmoobuKey } from '../../config/engine-credentials.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

const APARTMENTS = '/api/apartments';
const AVAILABILITY = '/booking/checkApartmentAvailability';

/** The signed headers of one request (`path` without query: the two requests carry none). */
export function smoobuSignedHeaders(key: SmoobuKey, method: string, path: string, body: string, at = new Date(), nonce: string = randomUUID()) {
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const canonical = [method, path, '', timestamp, nonce, createHash('sha256').update(body, 'utf8').digest('hex'), key.apiKey].join('\n');
  return {
    'X-API-Key': key.apiKey,
    'X-Timestamp': timestamp,
    'X-Nonce': nonce,
    'X-Signature': createHmac('sha256', key.apiSecret).update(canonical, 'utf8').digest('base64'),
  };
}

type SmoobuStay = Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut' | 'adults' | 'children'>;

function smoobuAvailabilityBody(stay: SmoobuStay): string {
  return JSON.stringify({
    arrivalDate: stay.checkIn,
    departureDate: stay.checkOut,
    apartments: [],
    customerId: Number(stay.propertyCode),
    guests: stay.adults + stay.children,
  });
}

/** Unit id → name from the apartments list (`{apartments: [{id, name}]}`). */
export function parseSmoobuApartments(body: string): Map<string, string | null> {
  const reply = engineJson(body, 'smoobu', 'apartments');
  if (!isObject(reply) || !Array.isArray(reply.apartments)) throw new UpstreamContractChanged('official', 'smoobu apartments reply without apartments');
  return new Map(reply.apartments.filter(isObject).map((a) => [text(a, 'id'), nonEmptyText(a, 'name')]));
}

/** A map the PHP backend sends as `[]` when empty. */
const mapOf = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** One offer per unit the availability reply names (priced, or refused with a message). */
export function parseSmoobuAvailability(body: string, names: Map<string, string | null>): EngineRoomOffer[] {
  const reply = engineJson(body, 'smoobu', 'checkApartmentAvailability');
  if (!isObject(reply) || !Array.isArray(reply.availableApartments))
    throw new UpstreamContractChanged('official', 'smoobu availability reply without availableApartments');
  const available = new Set(reply.availableApartments.map((id) => String(id)));
  const prices = mapOf(reply.prices);
  const errors = mapOf(reply.errorMessages);
  const ids = [...new Set([...available, ...Object.keys(prices), ...Object.keys(errors)])];
  return ids.map((id) => {
    const price = obj(prices, id);
    const amount = numeric(price, 'price');
    const refused = obj(errors, id);
    return {
      room_id: id,
      room_name: names.get(id) ?? null,
      rate_name: null,
      rooms_available: null,
      total: amount != null && amount > 0 && available.has(id) ? amount : null,
      nightly: null,
      taxes: null,
      ...UNSTATED,
      currency: nonEmptyText(price, 'currency')?.toUpperCase() ?? null,
      bookable: available.has(id) ? true : refused ? false : null,
      upstream_rate_id: null,
      price_basis: 'stay_total_as_quoted',
      derivation: 'upstream',
    };
  });
}

export const smoobu: PricedEngine = {
  id: 'smoobu',
  endpoints: [APARTMENTS, AVAILABILITY],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ smoobu: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its API is opened by each account with its own key and secret; set OFFICIAL_SMOOBU_KEYS (customerId=apiKey:apiSecret) to price an account's Smoobu booking tool",
  async quote(stay, call, { base, smoobu: keys }) {
    const key = keys[stay.propertyCode];
    if (!key)
      throw new InvalidInput(
        `Smoobu account ${stay.propertyCode} is not priced here: OFFICIAL_SMOOBU_KEYS holds no key for it (its API is opened by the account with its own key and secret)`,
      );
    const list = await call(`${base}${APARTMENTS}`, {
      method: 'GET',
      headers: { accept: 'application/json', ...smoobuSignedHeaders(key, 'GET', APARTMENTS, '') },
    });
    assertEngineOk(list);
    const body = smoobuAvailabilityBody(stay);
    const reply = await call(`${base}${AVAILABILITY}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...smoobuSignedHeaders(key, 'POST', AVAILABILITY, body) },
      body,
    });
    assertEngineOk(reply);
    return parseSmoobuAvailability(reply.text, parseSmoobuApartments(list.text));
  },
};

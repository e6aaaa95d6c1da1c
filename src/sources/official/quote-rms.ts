/**
 * RMS Cloud: the vendor's documented REST API (restapi8.rmscloud.com; its reference as mirrored in
 * praveenaj/rms-docs, test/fixtures/README.md), keyed by the id of the property's online booking
 * link (`bookings<n>.rmscloud.com/Search/Index/<id>/<n>/`: a number or a 16-hex code). The API is
 * opened with an integrator's agent credentials (and the module type RMS advises with them) plus the
 * property's own client id and web-service password, and prices for one of the property's online
 * distribution channels (its online agent); OFFICIAL_RMS_KEYS maps the link's id to all of these
 * (config/engine-credentials.ts): a property or group pricing its own sites.
 *
 * `POST /authToken` `{agentId, agentPassword, clientId, clientPassword, useTrainingDatabase,
 * moduleType}` → `{token, expiryDate, …}` (asked for this quote only, sent as the `authtoken`
 * header, never kept); `GET /agents/<onlineAgent>/rates` → `[{rateId, rateName, propertyId, …}]`;
 * `GET /categories?propertyId&modelType=lite` → `[{id, name, propertyId}]`; `POST /rates/grid`
 * `{arrival, departure, adults, children, infants, agentId, categoryIds, rateIds}` → `{categories:
 * [{categoryId, name, rates: [{rateId, name, dayBreakdown: [{theDate, dailyRate, availableAreas,
 * closedOnArrival, minStay, minStayOnArrival, maxStay, stopSell}]}]}]}`: rates "based on the
 * specified pax", per night, "not guaranteed to be bookable" unless the restrictions are kept.
 */
import { InvalidInput, UpstreamContractChanged } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, text, type JsonObject } from '../../domain/json.js';
import { addDays } from '../../domain/dates.js';
import type { RmsKey } from '../../config/engine-credentials.js';
import type { EngineCall, EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

const AUTH = '/authToken';
const GRID = '/rates/grid';
/** At most this many of the agent's properties have their categories asked (one request each). */
const MAX_PROPERTIES = 3;

type RmsStay = Pick<EngineStay, 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children'>;

export function parseRmsToken(body: string): string {
  const reply = engineJson(body, 'rms-cloud', 'authToken');
  const token = isObject(reply) ? nonEmptyText(reply, 'token') : null;
  if (!token) throw new UpstreamContractChanged('official', 'rms authToken reply without a token');
  return token;
}

/** The agent's rate ids and the properties they belong to. */
export function parseRmsAgentRates(body: string): { rateIds: number[]; propertyIds: number[] } {
  const rates = engineJson(body, 'rms-cloud', 'agent rates');
  if (!Array.isArray(rates)) throw new UpstreamContractChanged('official', 'rms agent rates reply is not a list');
  const rows = rates.filter(isObject);
  const ids = (k: string) => [...new Set(rows.map((r) => numeric(r, k)).filter((n): n is number => n != null))];
  return { rateIds: ids('rateId'), propertyIds: ids('propertyId') };
}

export function parseRmsCategories(body: string): number[] {
  const categories = engineJson(body, 'rms-cloud', 'categories');
  if (!Array.isArray(categories)) throw new UpstreamContractChanged('official', 'rms categories reply is not a list');
  return categories
    .filter(isObject)
    .map((c) => numeric(c, 'id'))
    .filter((n): n is number => n != null);
}

/** Whether the nights open the stay: each free and sold, arrival allowed, minimum and maximum stay kept. */
function openFor(nights: (JsonObject | undefined)[], stay: RmsStay): nights is JsonObject[] {
  const [arrival] = nights;
  if (!arrival || nights.some((d) => !d)) return false;
  const limit = (k: string) => numeric(arrival, k) ?? 0;
  return (
    nights.every((d) => d != null && (numeric(d, 'availableAreas') ?? 0) > 0 && d.stopSell !== true) &&
    arrival.closedOnArrival !== true &&
    stay.nights >= limit('minStay') &&
    stay.nights >= limit('minStayOnArrival') &&
    (limit('maxStay') === 0 || stay.nights <= limit('maxStay'))
  );
}

/** One offer per category and rate of the grid; priced when every night is open and has a rate. */
export function parseRmsRateGrid(body: string, stay: RmsStay): EngineRoomOffer[] {
  const reply = engineJson(body, 'rms-cloud', 'rates grid');
  if (!isObject(reply) || !Array.isArray(reply.categories)) throw new UpstreamContractChanged('official', 'rms rates grid reply without categories');
  const offers: EngineRoomOffer[] = [];
  for (const category of reply.categories.filter(isObject)) {
    for (const rate of Array.isArray(category.rates) ? category.rates.filter(isObject) : []) {
      const days = new Map((Array.isArray(rate.dayBreakdown) ? rate.dayBreakdown.filter(isObject) : []).map((d) => [text(d, 'theDate').slice(0, 10), d]));
      const nights = Array.from({ length: stay.nights }, (_, i) => days.get(addDays(stay.checkIn, i)));
      const rates = nights.map((d) => (d ? numeric(d, 'dailyRate') : null));
      const nightly = rates.every((r): r is number => r != null && r > 0) ? rates : null;
      const open = openFor(nights, stay) && nightly != null;
      const free = nights.every((d) => d) ? Math.min(...nights.map((d) => (d ? (numeric(d, 'availableAreas') ?? 0) : 0))) : null;
      offers.push({
        room_id: text(category, 'categoryId'),
        room_name: nonEmptyText(category, 'name'),
        rate_name: nonEmptyText(rate, 'name'),
        rooms_available: free,
        total: open && nightly ? Math.round(nightly.reduce((a, b) => a + b, 0) * 100) / 100 : null,
        nightly: open ? nightly : null,
        taxes: null,
        ...UNSTATED,
        currency: null,
        bookable: open,
        upstream_rate_id: text(rate, 'rateId') || null,
        price_basis: 'stay_total_sum_of_nightly',
        derivation: 'sum_of_upstream_nightly_rates',
      });
    }
  }
  return offers;
}

async function json(call: EngineCall, url: string, token: string, body?: unknown): Promise<string> {
  const reply = await call(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { accept: 'application/json', authtoken: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assertEngineOk(reply);
  return reply.text;
}

export const rmsCloud: PricedEngine = {
  id: 'rms-cloud',
  endpoints: [AUTH, '/agents/<onlineAgent>/rates', '/categories', GRID],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ rms: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its REST API is opened with an integrator's agent credentials and the property's own client id and password; set OFFICIAL_RMS_KEYS (linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId) to price a property's RMS booking page",
  async quote(stay, call, { base, rms: keys }) {
    const key: RmsKey | undefined = keys[stay.propertyCode.toLowerCase()];
    if (!key)
      throw new InvalidInput(
        `RMS Cloud property ${stay.propertyCode} is not priced here: OFFICIAL_RMS_KEYS holds no credentials for it (its API is opened with the property's own client password)`,
      );
    const auth = await call(`${base}${AUTH}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        agentId: key.agentId,
        agentPassword: key.agentPassword,
        clientId: key.clientId,
        clientPassword: key.clientPassword,
        useTrainingDatabase: false,
        moduleType: [key.moduleType],
      }),
    });
    assertEngineOk(auth);
    const token = parseRmsToken(auth.text);
    const { rateIds, propertyIds } = parseRmsAgentRates(await json(call, `${base}/agents/${key.onlineAgentId}/rates`, token));
    if (rateIds.length === 0) return [];
    const categoryIds: number[] = [];
    for (const propertyId of propertyIds.slice(0, MAX_PROPERTIES)) {
      const q = new URLSearchParams({ propertyId: String(propertyId), modelType: 'lite' });
      categoryIds.push(...parseRmsCategories(await json(call, `${base}/categories?${q.toString()}`, token)));
    }
    if (categoryIds.length === 0) return [];
    const grid = await json(call, `${base}${GRID}`, token, {
      arrival: stay.checkIn,
      departure: stay.checkOut,
      adults: stay.adults,
      children: stay.children,
      infants: 0,
      agentId: key.onlineAgentId,
      categoryIds,
      rateIds,
      includeEstimatedRates: false,
      includeZeroRates: false,
    });
    return parseRmsRateGrid(grid, stay);
  },
};

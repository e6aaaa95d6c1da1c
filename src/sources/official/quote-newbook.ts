/**
 * Newbook: the vendor's REST API (api.newbook.cloud/rest; test/fixtures/README.md names the public
 * clients its shapes come from), keyed by the instance of the property's online booking page
 * (`bookings<region>.newbook.cloud/online/<instance>`). The API is opened with the instance's own
 * API key, region and API user, so a Newbook property is priced only when OFFICIAL_NEWBOOK_KEYS holds
 * them (config/engine-credentials.ts): a park or hotel pricing its own sites.
 *
 * `POST /rest/bookings_availability_pricing` (HTTP Basic with the API user) `{region, api_key,
 * period_from, period_to, adults, children, infants, daily_mode}` → `{success, data: {<categoryId>:
 * {category_name, sites_available, sites_message, tariffs_available: [{tariff_label, tariff_total,
 * tariff_success, tariff_message, tariffs_quoted: {<date>: {amount}}}]}}, message}`: one offer per
 * category and tariff; a tariff is sold for the stay when `tariff_success` is true and a site is free.
 */
import { InvalidInput, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, text } from '../../domain/json.js';
import { addDays } from '../../domain/dates.js';
import type { NewbookKey } from '../../config/engine-credentials.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

const AVAILABILITY = '/rest/bookings_availability_pricing';

type NewbookStay = Pick<EngineStay, 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children'>;

/** The request body: the stay as public clients send it (arrival and departure with the times they give), per-night quotes asked. */
function newbookAvailabilityBody(stay: NewbookStay, key: NewbookKey): string {
  return JSON.stringify({
    region: key.region,
    api_key: key.apiKey,
    period_from: `${stay.checkIn} 14:00:00`,
    period_to: `${stay.checkOut} 10:00:00`,
    adults: stay.adults,
    children: stay.children,
    infants: 0,
    daily_mode: 'true',
  });
}

/** `"true"`, `true` or `1` as the API writes its flags. */
const flag = (v: unknown) => v === true || v === 1 || (typeof v === 'string' && ['true', '1'].includes(v.toLowerCase()));

/** The nightly amounts of `tariffs_quoted` for the stay's nights, in date order, when every night has one. */
function nightlyOf(quoted: unknown, stay: NewbookStay): number[] | null {
  if (!isObject(quoted)) return null;
  const amounts = Array.from({ length: stay.nights }, (_, i) => {
    const day = quoted[addDays(stay.checkIn, i)];
    return isObject(day) ? numeric(day, 'amount') : typeof day === 'number' ? day : null;
  });
  return amounts.every((a): a is number => a != null && a >= 0) ? amounts : null;
}

/** One offer per category and tariff the reply lists. */
export function parseNewbookAvailability(body: string, stay: NewbookStay): EngineRoomOffer[] {
  const reply = engineJson(body, 'newbook', 'bookings_availability_pricing');
  if (!isObject(reply) || !('success' in reply)) throw new UpstreamContractChanged('official', 'newbook availability reply without success');
  if (!flag(reply.success)) throw new UpstreamFailed('NewbookError', 'upstream_error');
  if (Array.isArray(reply.data) && reply.data.length === 0) return [];
  if (!isObject(reply.data)) throw new UpstreamContractChanged('official', 'newbook availability reply without data');
  const offers: EngineRoomOffer[] = [];
  for (const [categoryId, category] of Object.entries(reply.data)) {
    if (!/^\d+$/.test(categoryId) || !isObject(category) || !Array.isArray(category.tariffs_available)) continue;
    const free = numeric(category, 'sites_available');
    for (const tariff of category.tariffs_available.filter(isObject)) {
      const sold = flag(tariff.tariff_success) && free != null && free > 0;
      const total = numeric(tariff, 'tariff_total');
      offers.push({
        room_id: categoryId,
        room_name: nonEmptyText(category, 'category_name'),
        rate_name: nonEmptyText(tariff, 'tariff_label'),
        rooms_available: free,
        total: sold && total != null && total > 0 ? total : null,
        nightly: sold ? nightlyOf(tariff.tariffs_quoted, stay) : null,
        taxes: null,
        ...UNSTATED,
        currency: null,
        bookable: sold,
        upstream_rate_id: text(tariff, 'tariff_code') || null,
        price_basis: 'stay_total_as_quoted',
        derivation: 'upstream',
      });
    }
  }
  return offers;
}

export const newbook: PricedEngine = {
  id: 'newbook',
  endpoints: [AVAILABILITY],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ newbook: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its API is opened by each property with its own API key and user; set OFFICIAL_NEWBOOK_KEYS (instance=region:username:password:apiKey) to price a property's Newbook booking page",
  async quote(stay, call, { base, newbook: keys }) {
    const key = keys[stay.propertyCode.toLowerCase()];
    if (!key)
      throw new InvalidInput(
        `Newbook instance ${stay.propertyCode} is not priced here: OFFICIAL_NEWBOOK_KEYS holds no key for it (its API is opened by the property with its own key)`,
      );
    const reply = await call(`${base}${AVAILABILITY}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${key.username}:${key.password}`, 'utf8').toString('base64')}`,
      },
      body: newbookAvailabilityBody(stay, key),
    });
    assertEngineOk(reply);
    return parseNewbookAvailability(reply.text, stay);
  },
};

/**
 * Hostaway: the vendor's documented Public API (api.hostaway.com; Hostaway/api, test/fixtures/README.md),
 * keyed by the listing id of the account's booking site (`<account>.holidayfuture.com/listings/<id>`)
 * or of its calendar widget (`hostawayCalendarWidget({baseUrl, listingId})`). The API is opened with
 * the account's own access token (issued to the account from its client secret, valid 24 months), so
 * a Hostaway listing is priced only when OFFICIAL_HOSTAWAY_KEYS holds its account's token
 * (config/engine-credentials.ts): a host or group pricing its own sites.
 *
 * `GET /v1/listings/<id>` → `{status, result: {id, name, currencyCode, …}}` names the listing and
 * its currency; `GET /v1/listings/<id>/calendar?startDate&endDate` → `{result: [{date, isAvailable,
 * price, minimumStay, maximumStay, …}]}` says whether each night is open; for an open stay, `POST
 * /v1/listings/<id>/calendar/priceDetails` `{startingDate, endingDate, numberOfGuests, version: 2}`
 * → `{result: {totalPrice, components: [{type: price|tax|fee|discount, name, title, total,
 * isIncludedInTotalPrice, isDeleted}]}}`: the stay total and its parts. The party is stated as
 * guests (adults and children alike); a listing is one unit (one room).
 */
import { InvalidInput, UpstreamContractChanged } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, text, type JsonObject } from '../../domain/json.js';
import { addDays } from '../../domain/dates.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';

type HostawayStay = Pick<EngineStay, 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children'>;

/** The `result` of a `{status: 'success', result}` reply, or a changed contract. */
function result(body: string, what: string): unknown {
  const reply = engineJson(body, 'hostaway', what);
  if (!isObject(reply) || !('result' in reply)) throw new UpstreamContractChanged('official', `hostaway ${what} reply without result`);
  return reply.result;
}

export interface HostawayListing {
  id: string;
  name: string | null;
  currency: string | null;
}

export function parseHostawayListing(body: string): HostawayListing {
  const listing = result(body, 'listing');
  if (!isObject(listing)) throw new UpstreamContractChanged('official', 'hostaway listing reply without a listing');
  const currency = nonEmptyText(listing, 'currencyCode')?.toUpperCase() ?? null;
  return { id: text(listing, 'id'), name: nonEmptyText(listing, 'name'), currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null };
}

/**
 * Whether the calendar opens the stay (every night available, the arrival day's minimum and maximum
 * stay kept) and the nightly prices it states, in date order; a night it does not list is not open.
 */
export function parseHostawayCalendar(body: string, stay: HostawayStay): { open: boolean; nightly: number[] | null } {
  const days = result(body, 'calendar');
  if (!Array.isArray(days)) throw new UpstreamContractChanged('official', 'hostaway calendar reply without days');
  const byDate = new Map(days.filter(isObject).map((d) => [text(d, 'date'), d]));
  const nights = Array.from({ length: stay.nights }, (_, i) => byDate.get(addDays(stay.checkIn, i)));
  const arrival = nights[0];
  const min = arrival ? numeric(arrival, 'minimumStay') : null;
  const max = arrival ? numeric(arrival, 'maximumStay') : null;
  const open = nights.every((d) => d != null && numeric(d, 'isAvailable') === 1) && (min == null || stay.nights >= min) && (max == null || stay.nights <= max);
  const prices = nights.map((d) => (d ? numeric(d, 'price') : null));
  return { open, nightly: prices.every((p): p is number => p != null && p > 0) ? prices : null };
}

const sum = (parts: JsonObject[]) => (parts.length ? Math.round(parts.reduce((s, c) => s + (numeric(c, 'total') ?? 0), 0) * 100) / 100 : null);

/** The stay's total and what the engine says of its taxes, fees and discounts. */
export function parseHostawayPriceDetails(body: string): Pick<EngineRoomOffer, 'total' | 'taxes' | 'fees' | 'taxes_and_fees_included' | 'discount_remarks'> {
  const details = result(body, 'priceDetails');
  if (!isObject(details) || !Array.isArray(details.components)) throw new UpstreamContractChanged('official', 'hostaway priceDetails reply without components');
  const parts = details.components.filter(isObject).filter((c) => numeric(c, 'isDeleted') !== 1);
  const of = (type: string) => parts.filter((c) => nonEmptyText(c, 'type') === type);
  const charges = [...of('tax'), ...of('fee')];
  const total = numeric(details, 'totalPrice');
  return {
    total: total != null && total > 0 ? total : null,
    taxes: sum(of('tax')),
    fees: sum(of('fee')),
    // stated per part: every tax and fee inside the total, or one outside it
    taxes_and_fees_included: charges.length ? charges.every((c) => numeric(c, 'isIncludedInTotalPrice') === 1) : null,
    discount_remarks: of('discount')
      .filter((c) => numeric(c, 'isIncludedInTotalPrice') === 1)
      .map((c) => nonEmptyText(c, 'title') ?? nonEmptyText(c, 'name'))
      .filter((t): t is string => t != null),
  };
}

function hostawayPriceDetailsBody(stay: HostawayStay): string {
  return JSON.stringify({ startingDate: stay.checkIn, endingDate: stay.checkOut, numberOfGuests: stay.adults + stay.children, version: 2 });
}

export const hostaway: PricedEngine = {
  id: 'hostaway',
  endpoints: ['/v1/listings/<id>', '/v1/listings/<id>/calendar', '/v1/listings/<id>/calendar/priceDetails'],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ hostaway: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its API is opened by each account with its own access token; set OFFICIAL_HOSTAWAY_KEYS (listingId=accessToken) to price an account's Hostaway listings",
  async quote(stay, call, { base, hostaway: keys }) {
    const token = keys[stay.propertyCode];
    if (!token)
      throw new InvalidInput(
        `Hostaway listing ${stay.propertyCode} is not priced here: OFFICIAL_HOSTAWAY_KEYS holds no access token for it (its API is opened by the account with its own token)`,
      );
    const listingUrl = `${base}/v1/listings/${encodeURIComponent(stay.propertyCode)}`;
    const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
    const listingReply = await call(listingUrl, { method: 'GET', headers });
    assertEngineOk(listingReply);
    const listing = parseHostawayListing(listingReply.text);
    const lastNight = addDays(stay.checkOut, -1);
    const calendarReply = await call(
      `${listingUrl}/calendar?${new URLSearchParams({ startDate: stay.checkIn, endDate: lastNight, includeResources: '0' }).toString()}`,
      {
        method: 'GET',
        headers,
      },
    );
    assertEngineOk(calendarReply);
    const calendar = parseHostawayCalendar(calendarReply.text, stay);
    const offer: EngineRoomOffer = {
      room_id: listing.id || stay.propertyCode,
      room_name: listing.name,
      rate_name: null,
      rooms_available: null,
      total: null,
      nightly: calendar.nightly,
      taxes: null,
      ...UNSTATED,
      currency: listing.currency,
      bookable: calendar.open,
      upstream_rate_id: null,
      price_basis: 'stay_total_as_quoted',
      derivation: 'upstream',
    };
    if (!calendar.open) return [offer];
    const priced = await call(`${listingUrl}/calendar/priceDetails`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: hostawayPriceDetailsBody(stay),
    });
    assertEngineOk(priced);
    return [{ ...offer, ...parseHostawayPriceDetails(priced.text) }];
  },
};

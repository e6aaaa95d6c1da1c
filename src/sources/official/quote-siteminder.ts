/**
 * SiteMinder (direct-book.com): the booking front end's public GraphQL endpoint (no login), as a
 * public client queries it (2025-26; not a vendor contract), keyed by the channel code of the
 * `direct-book.com/properties/<code>` link:
 * - `roomTypes(channelCode, checkInDate, checkOutDate, locale)` → room types with their `rates`;
 * - `quote(roomRateId, checkInDate, checkOutDate, adults)` → `price {net tax gross amount}` and
 *   `errors`. A quote with a positive `gross` and no errors is bookable; `gross` is the stay total.
 * `minAvailability` reads 0 server-side (the public client's note), so availability comes from the
 * quote and the number of rooms left is unknown. The rate's `uuid` is the quote's integer
 * `roomRateId`, as the public client passes it. No currency is stated in either reply.
 */
import { NotFound, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';
import { arr, at, isObject, nonEmptyText, numeric, text } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED } from './engine-shared.js';

const PATH = '/api/graphql';
/** The booking front end's own origin, which its GraphQL endpoint expects (also when the base is overridden). */
const ORIGIN = 'https://direct-book.com';
/** At most this many rates are quoted per stay (one request each, in parallel). */
export const SITEMINDER_QUOTE_CAP = 24;

const ROOM_TYPES_QUERY = `query roomTypes($channelCode: String!, $checkInDate: String, $checkOutDate: String, $locale: String) {
  roomTypes(channelCode: $channelCode, checkInDate: $checkInDate, checkOutDate: $checkOutDate, locale: $locale) {
    uuid name category minAvailability maxOccupancy
    rates { uuid name ratePlanId promotional }
  }
}`;

const QUOTE_QUERY = `query quote($roomRateId: Int!, $checkInDate: String!, $checkOutDate: String!, $adults: Int) {
  quote(roomRateId: $roomRateId, checkInDate: $checkInDate, checkOutDate: $checkOutDate, adults: $adults) {
    roomRateId name
    price { net tax gross amount }
    errors { type key }
  }
}`;

/** GraphQL error codes meaning our query no longer fits the schema. */
const SCHEMA_ERRORS = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED']);
const NOT_FOUND = /not found|unknown channel|no such (channel|property)/i;

interface SiteminderRate {
  roomRateId: number;
  name: string | null;
}

export interface SiteminderRoomType {
  uuid: string;
  name: string | null;
  rates: SiteminderRate[];
}

export interface SiteminderQuote {
  gross: number | null;
  tax: number | null;
  name: string | null;
  /** Error types or keys the quote carries (or the reply's errors when there is no quote). */
  errors: string[];
  bookable: boolean;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN, referer: `${ORIGIN}/` };

const post = (query: string, variables: Record<string, unknown>): SafeFetchInit => ({
  method: 'POST',
  headers: HEADERS,
  body: JSON.stringify({ query, variables }),
});

function siteminderRoomTypesRequest(stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut'>): SafeFetchInit {
  return post(ROOM_TYPES_QUERY, { channelCode: stay.propertyCode, checkInDate: stay.checkIn, checkOutDate: stay.checkOut, locale: 'en' });
}

function siteminderQuoteRequest(roomRateId: number, stay: Pick<EngineStay, 'checkIn' | 'checkOut' | 'adults'>): SafeFetchInit {
  return post(QUOTE_QUERY, { roomRateId, checkInDate: stay.checkIn, checkOutDate: stay.checkOut, adults: stay.adults });
}

/** `{data, errors}` of a GraphQL reply; a schema error means our query is out of date (503). */
function graphql(body: string, what: string): { data: unknown; errors: unknown[] } {
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    // not JSON at all is not a reply of the expected kind: unusable (502), not a changed contract
    throw new UpstreamFailed(`UnreadableReply (siteminder ${what})`, 'unusable');
  }
  if (!isObject(reply)) throw new UpstreamContractChanged('official', `siteminder ${what} reply object`);
  const schema = schemaError(reply);
  if (schema != null) throw new UpstreamContractChanged('official', `siteminder ${what} query rejected: ${schema}`);
  return { data: reply.data, errors: arr(reply, 'errors') };
}

function schemaError(reply: unknown): string | null {
  for (const e of arr(reply, 'errors')) {
    const code = at(e, 'extensions', 'code');
    if (typeof code === 'string' && SCHEMA_ERRORS.has(code)) return text(e, 'message').slice(0, 120) || code;
  }
  return null;
}

const messages = (errors: unknown[]) => errors.map((e) => text(e, 'message') || text(e, 'type') || text(e, 'key')).filter(Boolean);

/** The quote's integer `roomRateId` from a rate's `uuid` (a number or digits), else null. */
function rateId(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Room types and their quotable rates; an unknown channel is a 404, an empty list is nothing to sell. */
export function parseSiteminderRoomTypes(body: string, stay: Pick<EngineStay, 'propertyCode'>): SiteminderRoomType[] {
  const { data, errors } = graphql(body, 'roomTypes');
  const list = at(data, 'roomTypes');
  if (list == null) {
    if (messages(errors).some((m) => NOT_FOUND.test(m))) throw new NotFound(`siteminder property ${stay.propertyCode} not found`);
    if (errors.length) throw new UpstreamFailed('EngineGraphqlError');
    throw new UpstreamContractChanged('official', 'siteminder data.roomTypes');
  }
  if (!Array.isArray(list)) throw new UpstreamContractChanged('official', 'siteminder roomTypes is not a list');
  let listed = 0;
  const rooms: SiteminderRoomType[] = arr(list)
    .filter((r) => r !== null && typeof r === 'object')
    .map((r) => {
      const rates = arr(r, 'rates');
      listed += rates.length;
      return {
        uuid: text(r, 'uuid'),
        name: nonEmptyText(r, 'name'),
        rates: rates.flatMap((rate) => {
          const id = rateId(at(rate, 'uuid'));
          return id == null ? [] : [{ roomRateId: id, name: nonEmptyText(rate, 'name') }];
        }),
      };
    });
  if (listed > 0 && rooms.every((r) => r.rates.length === 0)) {
    throw new UpstreamContractChanged('official', 'siteminder rate uuid is not an integer roomRateId');
  }
  return rooms;
}

/** One rate's quote; `data.quote: null` (e.g. nothing for the dates) is not bookable, errors without data are a 502. */
export function parseSiteminderQuote(body: string): SiteminderQuote {
  const { data, errors } = graphql(body, 'quote');
  if (data == null) {
    if (errors.length) throw new UpstreamFailed('EngineGraphqlError');
    throw new UpstreamContractChanged('official', 'siteminder quote data');
  }
  const q = at(data, 'quote');
  if (q == null) return { gross: null, tax: null, name: null, errors: messages(errors), bookable: false };
  if (typeof q !== 'object' || (!('price' in q) && !('errors' in q))) throw new UpstreamContractChanged('official', 'siteminder quote price');
  const gross = numeric(q, 'price', 'gross');
  const tax = numeric(q, 'price', 'tax');
  const quoteErrors = arr(q, 'errors').map((e) => text(e, 'type') || text(e, 'key') || 'error');
  return { gross, tax, name: nonEmptyText(q, 'name'), errors: quoteErrors, bookable: gross != null && gross > 0 && quoteErrors.length === 0 };
}

/** A GraphQL server may answer a schema error with 400: read it before giving up on the status. */
function checkStatus(reply: { status: number; text: string }, what: string): void {
  if (reply.status < 400) return;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(reply.text);
  } catch {
    // not GraphQL: the status is all there is
  }
  const schema = schemaError(parsed);
  if (schema != null) throw new UpstreamContractChanged('official', `siteminder ${what} query rejected: ${schema}`);
  throw new UpstreamFailed(`EngineHttp${reply.status}`);
}

export const siteminder: PricedEngine = {
  id: 'siteminder',
  endpoints: [PATH],
  sendsCurrency: false,
  party: { children: false, rooms: false },
  async quote(stay, call, { base }) {
    const reply = await call(base + PATH, siteminderRoomTypesRequest(stay));
    checkStatus(reply, 'roomTypes');
    const rooms = parseSiteminderRoomTypes(reply.text, stay);
    const seen = new Set<number>();
    const targets = rooms
      .flatMap((room) => room.rates.map((rate) => ({ room, rate })))
      .filter(({ rate }) => !seen.has(rate.roomRateId) && seen.add(rate.roomRateId))
      .slice(0, SITEMINDER_QUOTE_CAP);
    return Promise.all(
      targets.map(async ({ room, rate }): Promise<EngineRoomOffer> => {
        const answer = await call(base + PATH, siteminderQuoteRequest(rate.roomRateId, stay));
        checkStatus(answer, 'quote');
        const q = parseSiteminderQuote(answer.text);
        return {
          room_id: room.uuid,
          room_name: room.name,
          rate_name: rate.name ?? q.name,
          rooms_available: null,
          total: q.bookable ? q.gross : null,
          nightly: null,
          taxes: q.bookable ? q.tax : null,
          ...UNSTATED,
          currency: null,
          bookable: q.bookable,
          upstream_rate_id: String(rate.roomRateId),
          price_basis: 'stay_total_gross_as_quoted',
          derivation: 'upstream',
        };
      }),
    );
  },
};

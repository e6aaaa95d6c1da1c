/**
 * SynXis (Sabre Hospitality): the booking SPA's own gateway, as public clients call it
 * (test/fixtures/README.md), keyed by the `hotel` and `chain` of the `be.synxis.com/?chain=…&hotel=…`
 * link:
 * 1. `GET /?chain&hotel&level=hotel&arrive&depart&adult&child&rooms&locale` (the deep link): the
 *    page server-renders the chain's `"WIDGET_API_KEY":"<base64>"` and sets the bot wall's session
 *    cookies, which this one quote keeps for its next request (engine-call.ts);
 * 2. `POST /gw/product/v1/getProductAvailability` with `Authorization: ApiKey <key>`, `Origin` and
 *    `Referer` (the gateway refuses other origins), body `{Paging, ProductAvailabilityQuery: {Chain,
 *    Hotel, [Currency], ChannelList WEB/GC, NumRooms, RoomStay {StartDate, EndDate, GuestCount}},
 *    UserDetails}` → `{ProductAvailabilityDetail: {Prices: [{Available, AvailableInventory,
 *    Product: {Room {Code}, Rate {Code}, Prices {Total {Price {Total {Amount, AmountWithFees}}}}}}],
 *    LeastRestrictiveFailure {ProductStatus}}, ContentLists {RoomList, RateList}, ApplicationResults}`.
 * The stay total is `Total.Price.Total.AmountWithFees` (what the guest pays, per-stay fees
 * included, per the public client's check against the page); whether it includes every tax is not
 * stated, nor is its currency. A rate whose `CategoryCode` is `NRF` is non-refundable.
 */
import { randomBytes } from 'node:crypto';
import { InvalidInput, NotFound, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { arr, at, bool, isObject, nonEmptyText, numeric, objs, stringText, text, type JsonObject } from '../../domain/json.js';
import { OFFICIAL_ENGINE_HOSTS } from '../../config/hosts.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson, termsText } from './engine-shared.js';

const AVAILABILITY = '/gw/product/v1/getProductAvailability';
/** The key as the page renders it: `WIDGET_API_KEY:"…"` or `"WIDGET_API_KEY":"…"`, base64 of 80-400 characters. */
const WIDGET_KEY = /"?WIDGET_API_KEY"?\s*:\s*"([A-Za-z0-9+/=]{80,400})"/;
/** Rate categories the SPA's rate list marks as promotions or discounts (member, card, association rates). */
const REMARK_CATEGORIES = new Set(['PRO', 'DIS']);
const NOT_FOUND = /hotel.*(not found|invalid|inactive)|invalid hotel|unknown hotel/i;

type SynxisStay = Pick<EngineStay, 'propertyCode' | 'chainCode' | 'checkIn' | 'checkOut' | 'adults' | 'children' | 'rooms' | 'currency' | 'language'>;

const locale = (language: string) => (language.toLowerCase() === 'en' ? 'en-US' : language);

/** The SPA's deep link on the stay (the public client's documented form). */
export function synxisStayLink(base: string, stay: SynxisStay): string {
  const q = new URLSearchParams({
    adult: String(stay.adults),
    arrive: stay.checkIn,
    chain: stay.chainCode ?? '',
    child: String(stay.children),
    ...(stay.currency ? { currency: stay.currency } : {}),
    depart: stay.checkOut,
    hotel: stay.propertyCode,
    level: 'hotel',
    locale: locale(stay.language),
    rooms: String(stay.rooms),
  });
  return `${base}/?${q.toString()}`;
}

/** The chain's widget key from the rendered booking page; a page without one is a contract change. */
export function parseSynxisWidgetKey(html: string): string {
  const m = WIDGET_KEY.exec(html);
  if (!m?.[1]) throw new UpstreamContractChanged('official', 'synxis booking page carries no WIDGET_API_KEY');
  return m[1];
}

export function synxisAvailabilityBody(stay: SynxisStay): string {
  return JSON.stringify({
    Paging: { Size: 100 },
    ProductAvailabilityQuery: {
      OnlyCheckRequested: false,
      ReturnFullContentDetails: true,
      Chain: { Id: stay.chainCode },
      Hotel: { Id: stay.propertyCode },
      ...(stay.currency ? { Currency: { currencyCode: stay.currency } } : {}),
      ChannelList: { PrimaryChannel: { Code: 'WEB' }, SecondaryChannel: { Code: 'GC' } },
      NumRooms: stay.rooms,
      LoyaltyList: [],
      RoomStay: {
        StartDate: stay.checkIn,
        EndDate: stay.checkOut,
        GuestCount: [
          { AgeQualifyingCode: 'Adult', NumGuests: stay.adults },
          { AgeQualifyingCode: 'Child', NumGuests: stay.children, Ages: [] },
        ],
      },
    },
    UserDetails: { Preferences: { Language: { code: locale(stay.language) } } },
  });
}

function byCode(list: JsonObject[]): Map<string, JsonObject> {
  return new Map(list.filter((x) => text(x, 'Code')).map((x) => [text(x, 'Code'), x]));
}

/** The availability details (an object, a list, or the older ProductAvailabilityList), flattened to price rows. */
function priceRows(reply: JsonObject): JsonObject[] {
  const details = [reply.ProductAvailabilityDetail, reply.ProductAvailabilityList].flatMap((d) => (Array.isArray(d) ? d : d == null ? [] : [d]));
  return details.filter(isObject).flatMap((d) => objs(d, 'Prices'));
}

/** Offers of a getProductAvailability reply: one per (room, rate) row; nothing in inventory lists the rooms as not bookable. */
export function parseSynxisAvailability(body: string, stay: SynxisStay): EngineRoomOffer[] {
  const reply = engineJson(body, 'synxis', 'availability');
  if (!isObject(reply)) throw new UpstreamContractChanged('official', 'synxis availability object');
  const errors = arr(reply, 'ApplicationResults', 'Error');
  if (errors.length) {
    const message = errors.map((e) => text(e, 'Message') || text(e, 'ShortText') || text(e, 'Code')).join('; ');
    if (NOT_FOUND.test(message)) throw new NotFound(`synxis property ${stay.propertyCode} not found`);
    throw new UpstreamFailed(`EngineError: ${message.slice(0, 120) || 'synxis application error'}`);
  }
  const rooms = byCode(objs(reply, 'ContentLists', 'RoomList'));
  const rates = byCode(objs(reply, 'ContentLists', 'RateList'));
  const rows = priceRows(reply);
  const status = [reply.ProductAvailabilityDetail].flat().map((d) => stringText(d, 'LeastRestrictiveFailure', 'ProductStatus'))[0] ?? '';
  if (!rows.length && status === 'NoAvailableInventory') return [...rooms.keys()].map((code) => soldOut(code, rooms.get(code)!));
  const link = synxisStayLink(OFFICIAL_ENGINE_HOSTS.synxis.url, stay);
  return rows.flatMap((row): EngineRoomOffer[] => {
    const roomCode = text(row, 'Product', 'Room', 'Code');
    const rateCode = text(row, 'Product', 'Rate', 'Code');
    if (!roomCode || !rateCode) return [];
    const rate = rates.get(rateCode);
    const total = numeric(row, 'Product', 'Prices', 'Total', 'Price', 'Total', 'AmountWithFees');
    const available = bool(row, 'Available');
    const category = stringText(rate, 'CategoryCode').toUpperCase();
    const rateName = nonEmptyText(rate, 'Name') ?? nonEmptyText(rate, 'Details', 'DisplayName');
    return [
      {
        room_id: roomCode,
        room_name: nonEmptyText(rooms.get(roomCode), 'Name'),
        rate_name: rateName ?? rateCode,
        rooms_available: numeric(row, 'AvailableInventory'),
        total: available !== false && total != null && total > 0 ? total : null,
        nightly: null,
        taxes: null,
        ...UNSTATED,
        currency: null,
        refundable: category === 'NRF' ? false : null,
        cancellation_policy: termsText(at(rate, 'Details', 'DetailedDescription')),
        discount_remarks: REMARK_CATEGORIES.has(category) && rateName ? [rateName] : [],
        booking_url: link,
        bookable: available === false ? false : total != null && total > 0,
        upstream_rate_id: `${roomCode}/${rateCode}`,
        price_basis: 'stay_total_with_fees_as_quoted',
        derivation: 'upstream',
      },
    ];
  });
}

function soldOut(code: string, room: JsonObject): EngineRoomOffer {
  return {
    room_id: code,
    room_name: nonEmptyText(room, 'Name'),
    rate_name: null,
    rooms_available: 0,
    total: null,
    nightly: null,
    taxes: null,
    ...UNSTATED,
    currency: null,
    bookable: false,
    upstream_rate_id: null,
    price_basis: 'stay_total_with_fees_as_quoted',
    derivation: 'upstream',
  };
}

export const synxis: PricedEngine = {
  id: 'synxis',
  endpoints: ['/?chain&hotel&level=hotel (the booking page, for its widget key)', AVAILABILITY],
  sendsCurrency: true,
  party: { children: true, rooms: true },
  async quote(stay, call, { base }) {
    if (!stay.chainCode) throw new InvalidInput('booking engine SynXis detected, but its booking link carries no chain id');
    const page = await call(synxisStayLink(base, stay), { method: 'GET', expect: 'html' });
    assertEngineOk(page);
    const key = parseSynxisWidgetKey(page.text);
    const origin = new URL(base).origin;
    const reply = await call(base + AVAILABILITY, {
      method: 'POST',
      headers: {
        authorization: `ApiKey ${key}`,
        activityid: randomBytes(5).toString('hex'),
        'content-type': 'application/json',
        accept: 'application/json, text/plain, */*',
        origin,
        referer: `${origin}/`,
      },
      body: synxisAvailabilityBody(stay),
    });
    assertEngineOk(reply);
    return parseSynxisAvailability(reply.text, stay);
  },
};

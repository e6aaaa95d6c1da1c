/**
 * Lodgify: the vendor's documented public API v2 (api.lodgify.com; test/fixtures/README.md), keyed
 * by the property id of the hotel's `checkout.lodgify.com/…/<id>/` link or its Book Now box's
 * `data-rental-id`. The API is opened with the account's own key (`X-ApiKey`, from its Lodgify
 * settings), so a Lodgify property is priced only when OFFICIAL_LODGIFY_KEYS holds its key
 * (config/engine-credentials.ts): a hotel or group pricing its own sites.
 *
 * `GET /v2/properties/<id>?includeInOut=false` → `{id, name, rooms: [{id, name}], currency_code, …}`
 * lists the room types; then one `GET /v2/quote/<id>?arrival&departure&roomTypes[0].Id&roomTypes[0].People`
 * per room type → `{total_including_vat | total_excluding_vat + total_vat, currency_code,
 * room_types: [{room_type_id, name, people, price_types: [{type, description, prices: [{description,
 * amount}], subtotal}], subtotal}], cancellation_policy_text, …}` (a list of one in one public
 * client's typing, one object in another's: both read). Price types are numbered by the vendor:
 * 0 room rate, 1 promotion, 2 fees, 3 add-ons, 4 taxes. Which of the two totals is set depends on
 * the account's sales-tax setting: `total_including_vat` is the all-in stay total; otherwise
 * `total_excluding_vat` is given with the VAT (`total_vat`) apart. The request states the party as
 * people (adults and children alike), one room type per request.
 */
import { InvalidInput, UpstreamContractChanged } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, text, type JsonObject } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson, termsText } from './engine-shared.js';

/** At most this many room types are quoted (one request each). */
const MAX_ROOM_TYPES = 12;

const PRICE_TYPE = { promotion: 1, fees: 2, taxes: 4 } as const;

type LodgifyStay = Pick<EngineStay, 'propertyCode' | 'bookingUrl' | 'checkIn' | 'checkOut' | 'adults' | 'children'>;

function lodgifyPropertyUrl(base: string, propertyId: string): string {
  return `${base}/v2/properties/${encodeURIComponent(propertyId)}?includeInOut=false`;
}

function lodgifyQuoteUrl(base: string, stay: LodgifyStay, roomTypeId: string): string {
  const q = new URLSearchParams({
    arrival: stay.checkIn,
    departure: stay.checkOut,
    'roomTypes[0].Id': roomTypeId,
    'roomTypes[0].People': String(stay.adults + stay.children),
  });
  return `${base}/v2/quote/${encodeURIComponent(stay.propertyCode)}?${q.toString()}`;
}

/** The property's room types (`rooms[]`), in its order. */
export function parseLodgifyRooms(body: string): { id: string; name: string | null }[] {
  const reply = engineJson(body, 'lodgify', 'property');
  if (!isObject(reply) || !Array.isArray(reply.rooms)) throw new UpstreamContractChanged('official', 'lodgify property without rooms');
  return reply.rooms.filter(isObject).flatMap((r) => (text(r, 'id') ? [{ id: text(r, 'id'), name: nonEmptyText(r, 'name') }] : []));
}

/** The subtotal and line descriptions of one numbered price type of the quote's room type, or null when absent. */
function priceType(roomType: JsonObject | null, type: number): { subtotal: number | null; lines: string[] } | null {
  const list = Array.isArray(roomType?.price_types) ? roomType.price_types.filter(isObject) : [];
  const found = list.find((p) => numeric(p, 'type') === type);
  if (!found) return null;
  const lines = (Array.isArray(found.prices) ? found.prices.filter(isObject) : []).map((p) => nonEmptyText(p, 'description')).filter((d) => d != null);
  return { subtotal: numeric(found, 'subtotal'), lines };
}

/**
 * The link the hotel's own booking button uses, on this stay: `checkout.lodgify.com/…/<id>/reservation`
 * with the `arrival`, `departure` and `adults` parameters public booking links carry; null when the
 * site's link is not of that shape (a Book Now box gives none).
 */
export function lodgifyStayLink(stay: LodgifyStay): string | null {
  if (!stay.bookingUrl) return null;
  const link = new URL(stay.bookingUrl);
  const m = new RegExp(`^(/(?:[a-z]{2}/)?[\\w-]+/${stay.propertyCode})(?:/|$)`).exec(link.pathname);
  if (link.hostname !== 'checkout.lodgify.com' || !m) return null;
  const q = new URLSearchParams({ arrival: stay.checkIn, departure: stay.checkOut, adults: String(stay.adults) });
  return `https://checkout.lodgify.com${m[1]}/reservation?${q.toString()}`;
}

/** One offer from the quote of one room type. */
export function parseLodgifyQuote(body: string, room: { id: string; name: string | null }, stay: LodgifyStay): EngineRoomOffer {
  const reply = engineJson(body, 'lodgify', 'quote');
  const quote = Array.isArray(reply) ? reply[0] : reply;
  if (!isObject(quote) || !('total_including_vat' in quote || 'total_excluding_vat' in quote))
    throw new UpstreamContractChanged('official', 'lodgify quote without total_including_vat or total_excluding_vat');
  const roomTypes = Array.isArray(quote.room_types) ? quote.room_types.filter(isObject) : [];
  const roomType = roomTypes.find((r) => text(r, 'room_type_id') === room.id) ?? roomTypes[0] ?? null;
  const inclusive = numeric(quote, 'total_including_vat');
  const exclusive = inclusive == null ? numeric(quote, 'total_excluding_vat') : null;
  const total = inclusive ?? exclusive;
  const taxes = priceType(roomType, PRICE_TYPE.taxes)?.subtotal ?? null;
  const promotions = priceType(roomType, PRICE_TYPE.promotion)?.lines ?? [];
  return {
    room_id: room.id,
    room_name: nonEmptyText(roomType, 'name') ?? room.name,
    rate_name: null,
    rooms_available: null,
    total: total != null && total > 0 ? total : null,
    nightly: null,
    // with VAT apart, the VAT it states is the tax beside the total; with it included, the taxes lines
    taxes: exclusive != null ? numeric(quote, 'total_vat') : taxes,
    ...UNSTATED,
    fees: priceType(roomType, PRICE_TYPE.fees)?.subtotal ?? null,
    taxes_and_fees_included: inclusive != null ? true : exclusive != null ? false : null,
    currency: nonEmptyText(quote, 'currency_code')?.toUpperCase() ?? null,
    cancellation_policy: termsText(quote.cancellation_policy_text),
    discount_remarks: promotions,
    booking_url: lodgifyStayLink(stay),
    // a quote is given for the dates asked; whether the room is free on them the reply does not say
    bookable: null,
    upstream_rate_id: null,
    price_basis: inclusive != null ? 'stay_total_including_vat_as_quoted' : 'stay_total_excluding_vat_as_quoted',
    derivation: 'upstream',
  };
}

export const lodgify: PricedEngine = {
  id: 'lodgify',
  endpoints: ['/v2/properties/<id>?includeInOut=false', '/v2/quote/<id>?arrival&departure&roomTypes[0].Id&roomTypes[0].People'],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ lodgify: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its API is opened by each account with its own key; set OFFICIAL_LODGIFY_KEYS (propertyId=apiKey) to price a property's Lodgify engine",
  async quote(stay, call, { base, lodgify: keys }) {
    const key = keys[stay.propertyCode];
    if (!key)
      throw new InvalidInput(
        `Lodgify property ${stay.propertyCode} is not priced here: OFFICIAL_LODGIFY_KEYS holds no key for it (its API is opened by the account with its own key)`,
      );
    const init = { method: 'GET', headers: { accept: 'application/json', 'x-apikey': key } } as const;
    const property = await call(lodgifyPropertyUrl(base, stay.propertyCode), init);
    assertEngineOk(property);
    const offers: EngineRoomOffer[] = [];
    for (const room of parseLodgifyRooms(property.text).slice(0, MAX_ROOM_TYPES)) {
      const reply = await call(lodgifyQuoteUrl(base, stay, room.id), init);
      // a refused quote (the room type not offered for these dates or this party): listed, not priced
      if (reply.status >= 400) {
        offers.push({
          ...UNSTATED,
          room_id: room.id,
          room_name: room.name,
          rate_name: null,
          rooms_available: null,
          total: null,
          nightly: null,
          taxes: null,
          currency: null,
          bookable: null,
          upstream_rate_id: null,
          price_basis: 'not_quoted',
          derivation: 'upstream_refused',
        });
        continue;
      }
      offers.push(parseLodgifyQuote(reply.text, room, stay));
    }
    return offers;
  },
};

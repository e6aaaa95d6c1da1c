/**
 * eZee (iPMS247, eZee Reservation): the vendor's documented booking-engine API (its public API
 * documentation, "Check Availability"; test/fixtures/README.md), keyed by the slug of the
 * `live.ipms247.com/booking/book-rooms-<slug>` link. The API is opened by each hotel for its own
 * booking engine (a hotel code and an API key from its back office), so an eZee hotel is priced
 * only when OFFICIAL_EZEE_KEYS holds its key (config/engine-credentials.ts):
 * `GET /booking/reservation_api/listing.php?request_type=RoomList&HotelCode&APIKey&check_in_date
 * &check_out_date&number_adults&number_children&num_rooms&property_configuration_info=0&showtax=0
 * &show_only_available_rooms=0&language` → `[{Room_Name, Roomtype_Name, roomtypeunkid,
 * roomrateunkid, base/max_adult_occupancy, base/max_child_occupancy, available_rooms {date: n},
 * min_ava_rooms, room_rates_info {exclusive_tax, tax, inclusive_tax_adjustment: {date: rate},
 * totalprice_room_only, totalprice_inclusive_all}, extra_adult_rates_info and
 * extra_child_rates_info {inclusive_tax_adjustment: {date: rate}}, min_nights {date: n},
 * currency_code, prepaid_noncancel_nonrefundable, IsPromotion, Promotion_Name}]`.
 * `totalprice_inclusive_all` is "total room price inclusive of all taxes & adjustment" for the
 * room's base occupancy; the documentation says the API "will not calculate any extra adult & child
 * rate" and gives them per night, so a party above the base occupancy (within the maximum) is the
 * total plus those documented nightly extras, and a party above the maximum gets no offer. Rates
 * are per room: the room count is not multiplied here (the request states one room).
 */
import { InvalidInput, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, obj, text, type JsonObject } from '../../domain/json.js';
import type { EzeeHotelKey } from '../../config/engine-credentials.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson } from './engine-shared.js';
import { stayNights } from './quote-cloudbeds.js';

const LISTING = '/booking/reservation_api/listing.php';

type EzeeStay = Pick<EngineStay, 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children' | 'language'>;

function ezeeRoomListUrl(base: string, key: EzeeHotelKey, stay: EzeeStay): string {
  const q = new URLSearchParams({
    request_type: 'RoomList',
    HotelCode: key.hotelCode,
    APIKey: key.apiKey,
    check_in_date: stay.checkIn,
    check_out_date: stay.checkOut,
    number_adults: String(stay.adults),
    number_children: String(stay.children),
    num_rooms: '1',
    property_configuration_info: '0',
    showtax: '0',
    show_only_available_rooms: '0',
    language: stay.language,
  });
  return `${base}${LISTING}?${q.toString()}`;
}

/** Error codes of the documentation that mean "nothing to sell for this stay", not a failure. */
const NOTHING_FOR_THE_STAY = new Set(['-1', 'MaxAdultLimitReach', 'MaxChildLimitReach']);

/** An error reply (`{Errors: {ErrorCode, ErrorMessage}}`, or a list entry `{"Error Details": {Error_Code, Error_Message}}`): its code, or null. */
function errorCode(reply: unknown): string | null {
  const first = Array.isArray(reply) ? reply[0] : reply;
  const details = obj(first, 'Error Details') ?? obj(first, 'Errors');
  if (!details) return null;
  return text(details, 'Error_Code') || text(details, 'ErrorCode') || 'unknown';
}

/** The nightly values of a `{date: value}` map for every night of the stay, or null when one is missing. */
function perNight(map: JsonObject | null, nights: string[]): number[] | null {
  if (!map) return null;
  const values = nights.map((n) => numeric(map, n));
  return values.every((v): v is number => v != null) ? values : null;
}

const sum = (values: number[]) => Number(values.reduce((a, b) => a + b, 0).toFixed(6));

/** What the party adds above the room's base occupancy (documented nightly extras), or null when a night has no extra rate. */
function extraGuests(entry: JsonObject, stay: EzeeStay, nights: string[]): { amount: number; fits: boolean } | null {
  const extraAdults = Math.max(0, stay.adults - (numeric(entry, 'base_adult_occupancy') ?? stay.adults));
  const extraChildren = Math.max(0, stay.children - (numeric(entry, 'base_child_occupancy') ?? stay.children));
  const maxAdults = numeric(entry, 'max_adult_occupancy');
  const maxChildren = numeric(entry, 'max_child_occupancy');
  const fits = (maxAdults == null || stay.adults <= maxAdults) && (maxChildren == null || stay.children <= maxChildren);
  let amount = 0;
  for (const [count, list] of [
    [extraAdults, 'extra_adult_rates_info'],
    [extraChildren, 'extra_child_rates_info'],
  ] as const) {
    if (count === 0) continue;
    const rates = perNight(obj(entry, list, 'inclusive_tax_adjustment'), nights);
    if (!rates) return null;
    amount += count * sum(rates);
  }
  return { amount, fits };
}

function offerOf(entry: JsonObject, stay: EzeeStay): EngineRoomOffer {
  const nights = stayNights(stay.checkIn, stay.nights);
  const rates = obj(entry, 'room_rates_info');
  const nightly = perNight(obj(rates, 'inclusive_tax_adjustment'), nights);
  const taxes = perNight(obj(rates, 'tax'), nights);
  const quoted = numeric(rates, 'totalprice_inclusive_all');
  const extras = extraGuests(entry, stay, nights);
  const total = quoted != null && quoted > 0 && extras?.fits ? Number((quoted + extras.amount).toFixed(6)) : null;
  const available = numeric(entry, 'min_ava_rooms');
  const minNights = numeric(obj(entry, 'min_nights'), nights[0]!);
  const nonRefundable = text(entry, 'prepaid_noncancel_nonrefundable') === '1';
  const promotion = entry.IsPromotion === true ? nonEmptyText(entry, 'Promotion_Name') : null;
  const roomType = nonEmptyText(entry, 'Roomtype_Name');
  const plan = nonEmptyText(entry, 'Room_Name');
  return {
    room_id: text(entry, 'roomtypeunkid'),
    room_name: roomType ?? plan,
    rate_name: roomType && plan !== roomType ? plan : null,
    rooms_available: available,
    total,
    // the nightly all-in rates of the base occupancy; with extra guests the nights are not split
    nightly: extras?.amount === 0 ? nightly : null,
    taxes: taxes && extras?.amount === 0 ? sum(taxes) : null,
    ...UNSTATED,
    taxes_and_fees_included: total != null ? true : null,
    currency: nonEmptyText(entry, 'currency_code')?.toUpperCase() ?? null,
    refundable: nonRefundable ? false : null,
    discount_remarks: promotion ? [promotion] : [],
    bookable: extras?.fits === false ? false : total != null && (available ?? 0) > 0 && (minNights == null || minNights <= stay.nights),
    upstream_rate_id: nonEmptyText(entry, 'roomrateunkid'),
    price_basis: extras?.amount ? 'stay_total_inclusive_with_extra_guests' : 'stay_total_inclusive_as_quoted',
    derivation: extras?.amount ? 'upstream_total_plus_upstream_extra_guest_nightly_rates' : 'upstream',
  };
}

/** One offer per room type and rate plan of the RoomList reply. */
export function parseEzeeRoomList(body: string, stay: EzeeStay): EngineRoomOffer[] {
  const reply = engineJson(body, 'ezee', 'RoomList');
  const code = errorCode(reply);
  if (code != null) {
    if (NOTHING_FOR_THE_STAY.has(code)) return [];
    // a refused key or hotel code is the configured credential's fault, not a changed contract
    throw new UpstreamFailed(`EzeeError ${code.slice(0, 40)}`, 'upstream_error');
  }
  if (!Array.isArray(reply)) throw new UpstreamContractChanged('official', 'ezee RoomList is not a list');
  return reply.filter(isObject).map((entry) => {
    if (!text(entry, 'roomtypeunkid') || !isObject(entry.room_rates_info))
      throw new UpstreamContractChanged('official', 'ezee RoomList entry without roomtypeunkid or room_rates_info');
    return offerOf(entry, stay);
  });
}

export const ezee: PricedEngine = {
  id: 'ezee',
  endpoints: [`${LISTING}?request_type=RoomList`],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ ezee: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its booking-engine API is opened by each hotel with its own key; set OFFICIAL_EZEE_KEYS (slug=hotelCode:apiKey) to price a hotel's eZee engine",
  async quote(stay, call, { base, ezee: keys }) {
    const key = keys[stay.propertyCode.toLowerCase()];
    if (!key)
      throw new InvalidInput(
        `eZee hotel ${stay.propertyCode} is not priced here: OFFICIAL_EZEE_KEYS holds no key for it (its booking-engine API is opened by the hotel with its own key)`,
      );
    const reply = await call(ezeeRoomListUrl(base, key, stay), { method: 'GET', headers: { accept: 'application/json' } });
    assertEngineOk(reply);
    return parseEzeeRoomList(reply.text, stay);
  },
};

/**
 * WuBook: the vendor's documented Wired API (XML-RPC at wired.wubook.net/xrws/, tdocs.wubook.net/wired;
 * test/fixtures/README.md), keyed by the property code (`lcode`) of the hotel's WuBook booking engine
 * (the Online Reception: `new _WuBook(<lcode>)` in its published widget snippet, `lcode=` in its
 * links). Wired is opened with a token the property's own WuBook account issues, so a WuBook hotel
 * is priced only when OFFICIAL_WUBOOK_KEYS holds its token (config/engine-credentials.ts): a hotel or
 * group pricing its own sites.
 *
 * Every call answers `[code, data]` (0: success). `fetch_rooms(token, lcode)` → rooms `{id, name,
 * occupancy, men, children, subroom, woodoo, …}` (`woodoo`: not sold on the booking engine;
 * `subroom`: a virtual room's parent, whose availability it inherits); `fetch_rooms_values(token,
 * lcode, dfrom, dto)` → `{<roomId>: [{avail, closed, closed_arrival, min_stay, min_stay_arrival,
 * max_stay, …} per day]}`; `fetch_plan_prices(token, lcode, 0, dfrom, dto)` → `{<roomId>: [price
 * per day]}` of plan 0, the WuBook Parity, which holds "the default prices for the Online Reception".
 * Dates are `dd/mm/yyyy`, `dto` the last night (both ends are days of the reply). A room's price is
 * per room and night; the party fits a room when adults and children together are within its occupancy.
 */
import { InvalidInput, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { isObject, nonEmptyText, numeric, text, type JsonObject } from '../../domain/json.js';
import { addDays } from '../../domain/dates.js';
import type { EngineCall, EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk } from './engine-shared.js';
import { parseXmlRpcResponse, xmlRpcCall, type RpcParam, type RpcValue } from './xml-rpc.js';

const WIRED = '/xrws/';
/** The WuBook Parity pricing plan: the Online Reception's default prices (always id 0). */
const PARITY_PLAN = 0;

type WubookStay = Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut' | 'nights' | 'adults' | 'children'>;

/** `yyyy-mm-dd` as Wired writes dates: `dd/mm/yyyy`. */
const wiredDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The booking engine opened on the stay, with the parameters hotel sites' own links pass it (`lcode`, `dfrom` as dd/mm/yyyy, `nights`). */
const wubookBookingUrl = (lcode: string, stay: Pick<EngineStay, 'checkIn' | 'nights'>) =>
  `https://wubook.net/wbkd/wbk/?lcode=${encodeURIComponent(lcode)}&dfrom=${wiredDate(stay.checkIn)}&nights=${stay.nights}`;

/** The `data` of a `[code, data]` answer; a code other than 0 is the API refusing the call (502 naming the code). */
export function wiredData(body: string, method: string): RpcValue {
  const answer = parseXmlRpcResponse(body, `wubook ${method}`);
  if (!Array.isArray(answer) || answer.length < 2 || typeof answer[0] !== 'number')
    throw new UpstreamContractChanged('official', `wubook ${method} answer is not [code, data]`);
  if (answer[0] !== 0) throw new UpstreamFailed(`WubookError ${answer[0]} (${method})`, 'upstream_error');
  return answer[1] ?? null;
}

export interface WubookRoom {
  id: string;
  name: string | null;
  /** adults and children together, as the room states them */
  occupancy: number | null;
  /** the parent room a virtual room inherits availability from, or null */
  parent: string | null;
  /** sold on the booking engine (not WooDoo only) */
  onBookingEngine: boolean;
}

export function parseWubookRooms(body: string): WubookRoom[] {
  const rooms = wiredData(body, 'fetch_rooms');
  if (!Array.isArray(rooms)) throw new UpstreamContractChanged('official', 'wubook fetch_rooms data is not a list');
  return rooms.filter(isObject).map((r) => {
    const parent = numeric(r, 'subroom');
    return {
      id: text(r, 'id'),
      name: nonEmptyText(r, 'name'),
      occupancy: numeric(r, 'occupancy'),
      parent: parent ? String(parent) : null,
      onBookingEngine: !numeric(r, 'woodoo'),
    };
  });
}

/** Per room id, its days (values or prices) in date order. */
function byRoom(data: unknown, method: string): Map<string, unknown[]> {
  if (!isObject(data)) throw new UpstreamContractChanged('official', `wubook ${method} data is not keyed by room`);
  return new Map(Object.entries(data).filter((e): e is [string, unknown[]] => Array.isArray(e[1])));
}

export const parseWubookRoomValues = (body: string) => byRoom(wiredData(body, 'fetch_rooms_values'), 'fetch_rooms_values');
export const parseWubookPlanPrices = (body: string) => byRoom(wiredData(body, 'fetch_plan_prices'), 'fetch_plan_prices');

/** Whether the days open the stay: every night free and not closed, arrival allowed, minimum and maximum stay kept. */
function openFor(days: JsonObject[], stay: WubookStay): boolean {
  const [arrival] = days;
  if (days.length !== stay.nights || !arrival) return false;
  const within = (limit: number | null, ok: (n: number) => boolean) => !limit || ok(limit);
  return (
    days.every((d) => (numeric(d, 'avail') ?? 0) > 0 && !numeric(d, 'closed')) &&
    !numeric(arrival, 'closed_arrival') &&
    within(numeric(arrival, 'min_stay'), (n) => stay.nights >= n) &&
    within(numeric(arrival, 'min_stay_arrival'), (n) => stay.nights >= n) &&
    within(numeric(arrival, 'max_stay'), (n) => stay.nights <= n)
  );
}

/** One offer per room the booking engine sells that fits the party; priced only when the stay is open and every night has a parity price. */
export function wubookOffers(rooms: WubookRoom[], values: Map<string, unknown[]>, prices: Map<string, unknown[]>, stay: WubookStay): EngineRoomOffer[] {
  const guests = stay.adults + stay.children;
  return rooms
    .filter((r) => r.onBookingEngine && r.occupancy != null && r.occupancy >= guests)
    .map((room) => {
      const own: JsonObject[] = (values.get(room.id) ?? []).filter(isObject).slice(0, stay.nights);
      // a virtual room inherits its parent's availability (its own restrictions still apply)
      const parentDays = room.parent ? (values.get(room.parent) ?? []).filter(isObject) : null;
      const days = parentDays ? own.map((d, i) => ({ ...d, avail: parentDays[i] ? numeric(parentDays[i], 'avail') : 0 })) : own;
      const nightly = (prices.get(room.id) ?? []).slice(0, stay.nights);
      const priced = nightly.length === stay.nights && nightly.every((p): p is number => typeof p === 'number' && p > 0) ? nightly : null;
      const open = openFor(days, stay) && priced != null;
      const free = days.length === stay.nights ? Math.min(...days.map((d) => numeric(d, 'avail') ?? 0)) : null;
      return {
        room_id: room.id,
        room_name: room.name,
        rate_name: null,
        rooms_available: free,
        total: open && priced ? Math.round(priced.reduce((a, b) => a + b, 0) * 100) / 100 : null,
        nightly: open ? priced : null,
        taxes: null,
        ...UNSTATED,
        booking_url: wubookBookingUrl(stay.propertyCode, stay),
        currency: null,
        bookable: open,
        upstream_rate_id: String(PARITY_PLAN),
        price_basis: 'stay_total_sum_of_nightly',
        derivation: 'sum_of_upstream_nightly_rates',
      };
    });
}

async function wired(call: EngineCall, base: string, method: string, params: RpcParam[]): Promise<string> {
  // the answer is XML: read as markup (a block page is still caught), not as JSON
  const reply = await call(`${base}${WIRED}`, { method: 'POST', expect: 'html', headers: { 'content-type': 'text/xml' }, body: xmlRpcCall(method, params) });
  assertEngineOk(reply);
  return reply.text;
}

export const wubook: PricedEngine = {
  id: 'wubook',
  endpoints: [`${WIRED} fetch_rooms`, `${WIRED} fetch_rooms_values`, `${WIRED} fetch_plan_prices`],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  unavailable: ({ wubook: keys }) =>
    Object.keys(keys).length > 0
      ? null
      : "its Wired API is opened with a token of the property's own WuBook account; set OFFICIAL_WUBOOK_KEYS (lcode=token) to price a hotel's WuBook booking engine",
  async quote(stay, call, { base, wubook: keys }) {
    const token = keys[stay.propertyCode];
    if (!token)
      throw new InvalidInput(
        `WuBook property ${stay.propertyCode} is not priced here: OFFICIAL_WUBOOK_KEYS holds no token for it (its Wired API is opened by the property's own account)`,
      );
    const lcode = Number(stay.propertyCode);
    const dfrom = wiredDate(stay.checkIn);
    const dto = wiredDate(addDays(stay.checkOut, -1));
    const rooms = parseWubookRooms(await wired(call, base, 'fetch_rooms', [token, lcode]));
    if (rooms.length === 0) return [];
    const values = parseWubookRoomValues(await wired(call, base, 'fetch_rooms_values', [token, lcode, dfrom, dto]));
    const prices = parseWubookPlanPrices(await wired(call, base, 'fetch_plan_prices', [token, lcode, PARITY_PLAN, dfrom, dto]));
    return wubookOffers(rooms, values, prices, stay);
  },
};

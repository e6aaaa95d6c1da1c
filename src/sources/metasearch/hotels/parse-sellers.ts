/**
 * The sellers of one property's rate block (`[6][2]` of the property payload in the AtySUc data
 * of a property lookup) and their rooms. Raw records, no provenance; missing values are null.
 *
 * Layout read off a recorded AtySUc property reply (travel-ops `santa-sophia-detail.txt`) and the
 * `stays` library's detail parser and golden output (NYC capture); the search page's rental
 * sellers at `[21]` have the same entry layout with 0/1 where the RPC writes false/true.
 */
import { arr, at, num, str } from '../../../domain/json.js';
import { truthy } from './af-init-data.js';
import { extractAmount } from './parse-property.js';

/** Seller lists inside the rate block. */
const SELLER_LISTS = {
  featured: [2], // sponsored sellers ("/aclk" links), prices with exact amounts, rooms at [7]
  all: [21], // every seller ("/travel/lodging/clk" links); some replies put them at [22] instead
  allAlternative: [22],
} as const;

/** Inside one seller entry. */
const SELLER_PATHS = {
  name: [0, 0],
  partnerId: [0, 1],
  link: [0, 2],
  logo: [0, 3, 0],
  official: [0, 5],
  rooms: [7], // [[room name, ?, [rate, …]], …]
  nightly: [12, 4], // [text, null, exact, null, rounded] or [text]
  total: [12, 5],
  cancellation: [12, 12, 1], // [free?, "Nov 10", "8:59 AM", "11/10"]
} as const;

/** Inside one room rate: `[link, ?, cancellation, ?, nightly pair, total pair]`. */
const ROOM_RATE_PATHS = {
  link: [0],
  cancellation: [2],
  nightly: [4],
  total: [5],
} as const;

export interface PricePair {
  text: string | null;
  amount: number | null;
  /** true when the amount is the reply's own number, false when read from the text. */
  exact: boolean;
}

export interface CancellationRecord {
  /** null when the reply states nothing. */
  free: boolean | null;
  until: string | null;
  time: string | null;
}

export interface RoomRateRecord {
  room_name: string | null;
  link: string | null;
  nightly: PricePair | null;
  total: PricePair | null;
  cancellation: CancellationRecord;
}

export interface SellerRecord {
  name: string;
  partner_id: string | null;
  link: string | null;
  logo: string | null;
  is_official: boolean;
  /** Listed among the sponsored (featured) sellers. */
  featured: boolean;
  nightly: PricePair | null;
  total: PricePair | null;
  cancellation: CancellationRecord;
  rooms: RoomRateRecord[];
}

export function pricePair(v: unknown): PricePair | null {
  if (!Array.isArray(v)) return null;
  const text = str(v, 0);
  const exact = num(v, 2) ?? num(v, 4);
  if (exact !== null) return { text, amount: exact, exact: true };
  const parsed = extractAmount(text);
  return text === null && parsed === null ? null : { text, amount: parsed, exact: false };
}

export function cancellation(v: unknown): CancellationRecord {
  if (!Array.isArray(v) || v.length === 0) return { free: null, until: null, time: null };
  const free = truthy(v[0]);
  return {
    free,
    until: free ? str(v, 1)?.trim() || null : null,
    time: free ? str(v, 2)?.trim() || null : null,
  };
}

function roomRates(seller: unknown): RoomRateRecord[] {
  return arr(seller, ...SELLER_PATHS.rooms).flatMap((room) => {
    const name = str(room, 0)?.trim() || null;
    return arr(room, 2).flatMap((rate) => {
      if (!Array.isArray(rate)) return [];
      const nightly = pricePair(at(rate, ...ROOM_RATE_PATHS.nightly));
      const total = pricePair(at(rate, ...ROOM_RATE_PATHS.total));
      if (!nightly && !total) return [];
      return [
        { room_name: name, link: str(rate, ...ROOM_RATE_PATHS.link), nightly, total, cancellation: cancellation(at(rate, ...ROOM_RATE_PATHS.cancellation)) },
      ];
    });
  });
}

function parseSeller(entry: unknown, featured: boolean): SellerRecord | null {
  const name = str(entry, ...SELLER_PATHS.name)?.trim();
  if (!name) return null;
  const id = at(entry, ...SELLER_PATHS.partnerId);
  const link = str(entry, ...SELLER_PATHS.link);
  return {
    name,
    partner_id: typeof id === 'number' || typeof id === 'string' ? String(id) : null,
    link: link || null,
    logo: str(entry, ...SELLER_PATHS.logo),
    is_official: truthy(at(entry, ...SELLER_PATHS.official)),
    featured,
    nightly: pricePair(at(entry, ...SELLER_PATHS.nightly)),
    total: pricePair(at(entry, ...SELLER_PATHS.total)),
    cancellation: cancellation(at(entry, ...SELLER_PATHS.cancellation)),
    rooms: roomRates(entry),
  };
}

/** The better of two readings of one price: an exact amount beats one read from text. */
function better(a: PricePair | null, b: PricePair | null): PricePair | null {
  if (!a) return b;
  if (!b) return a;
  return !a.exact && b.exact ? b : a;
}

/**
 * Every seller of the rate block, once each by name: the featured list first (exact amounts,
 * rooms), then the full list. A seller in both keeps the exact amounts, the organic link and
 * the union of rooms.
 */
export function parseSellers(rate: unknown): SellerRecord[] {
  const byName = new Map<string, SellerRecord>();
  const all = arr(rate, ...SELLER_LISTS.all);
  const lists: [unknown[], boolean][] = [
    [arr(rate, ...SELLER_LISTS.featured), true],
    [all.length ? all : arr(rate, ...SELLER_LISTS.allAlternative), false],
  ];
  for (const [list, featured] of lists) {
    for (const entry of list) {
      const s = parseSeller(entry, featured);
      if (!s) continue;
      const prev = byName.get(s.name);
      if (!prev) {
        byName.set(s.name, s);
        continue;
      }
      byName.set(s.name, {
        ...prev,
        // the organic link is the seller's own listing; a sponsored one is an ad click
        link: featured ? (prev.link ?? s.link) : (s.link ?? prev.link),
        logo: prev.logo ?? s.logo,
        is_official: prev.is_official || s.is_official,
        nightly: better(prev.nightly, s.nightly),
        total: better(prev.total, s.total),
        cancellation: prev.cancellation.free !== null ? prev.cancellation : s.cancellation,
        rooms: prev.rooms.length ? prev.rooms : s.rooms,
      });
    }
  }
  return [...byName.values()];
}

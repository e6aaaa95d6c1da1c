/**
 * Booking options of a fully chosen itinerary. The option rows are the ones the front end's
 * `GetBookingResults` RPC carries (inner `[1][0]`), as four public clients read them (fli
 * `booking_offers.py` and its tests, a Go client's wire notes on booking results, gflights
 * `offer_response.rs`): `[rank, [[sellerCode, seller, null, isAirline]], null, [[carrier, number]],
 * bool, [displayHost, null, [clickUrl, [[key, value]]]], null, [[null, price], priceToken], …,
 * offerToken@15, …, [[carrier, FARE], amenities, bool, fareName]@21]`. Separate tickets come as a
 * group `[rank, sellers, [row, row], null, [[null, total], token]]` (gflights).
 *
 * The booking page (`/travel/flights/booking?tfs=…`) is reported to fetch those rows by XHR rather
 * than inline them (fli issue #168, 2026-09), and the RPC needs a page-signed header. So every
 * `AF_initDataCallback` blob of the page is searched for rows of that exact shape; a page with
 * none is a contract change (503), never an empty or invented answer.
 */
import { UpstreamContractChanged } from '../../../domain/errors.js';
import { afKeys, extractAfData } from './af-data.js';
import { arr, arrOrNull, at, nonEmptyStr } from '../../../domain/json.js';
import { moneyOf } from './jspb.js';
import { priceTokenCurrency } from './price-token.js';

const SOURCE = 'metasearch';
/** Every seller link goes through the front end's click tracker. */
const CLICK_MARKER = '/travel/clk/';

/** Paths into one option row. */
const ROW = {
  rank: [0],
  seller: [1, 0],
  flights: [3],
  link: [5],
  displayHost: [5, 0],
  clickUrl: [5, 2, 0],
  clickParams: [5, 2, 1],
  price: [7, 0],
  priceToken: [7, 1],
  offerToken: [15],
  fareName: [21, 3],
} as const;
/** Paths into a seller entry `[code, name, null, isAirline]`. */
const SELLER = { code: [0], name: [1], isAirline: [3] } as const;
/** Paths into a separate-tickets group. */
const GROUP = { tickets: [2], price: [4, 0], priceToken: [4, 1] } as const;

interface FlightBookingTicket {
  seller_code: string;
  seller: string;
  /** Whether the seller is the airline itself; null when the row does not say. */
  is_airline: boolean | null;
  /** Seller host as shown (`www.aa.com/…`). */
  display_url: string | null;
  /** Flights the offer covers, as marketed (`AA 171`). */
  marketed_as: string[];
  price: number | null;
  /** Currency of the price, from its token. */
  currency: string | null;
  fare_name: string | null;
  /** The click tracker URL and its form parameters (`u=…`). */
  booking_url: string;
  booking_post_data: string | null;
  offer_token: string | null;
}

export type FlightBookingOption =
  { kind: 'together'; ticket: FlightBookingTicket } | { kind: 'separate'; tickets: FlightBookingTicket[]; price: number | null; currency: string | null };

function isRow(node: unknown[]): boolean {
  if (node.length < 8 || typeof node[0] !== 'number') return false;
  const seller = at(node, ...ROW.seller);
  if (!Array.isArray(seller) || typeof seller[0] !== 'string' || typeof seller[1] !== 'string') return false;
  const click = nonEmptyStr(node, ...ROW.clickUrl);
  return !!click && click.includes(CLICK_MARKER) && Array.isArray(at(node, ...ROW.price));
}

function postData(params: unknown[] | null): string | null {
  const pairs = (params ?? []).flatMap((p): [string, string][] =>
    Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string' ? [[p[0], p[1]]] : [],
  );
  return pairs.length ? new URLSearchParams(pairs).toString() : null;
}

function ticket(row: unknown[]): FlightBookingTicket {
  const isAirline = at(row, ...ROW.seller, ...SELLER.isAirline);
  const marketed = arr(row, ...ROW.flights).flatMap((f) => {
    const carrier = nonEmptyStr(f, 0);
    const number = nonEmptyStr(f, 1);
    return carrier && number ? [`${carrier} ${number}`] : [];
  });
  return {
    seller_code: nonEmptyStr(row, ...ROW.seller, ...SELLER.code) as string,
    seller: nonEmptyStr(row, ...ROW.seller, ...SELLER.name) as string,
    is_airline: typeof isAirline === 'boolean' ? isAirline : null,
    display_url: nonEmptyStr(row, ...ROW.displayHost),
    marketed_as: marketed,
    price: moneyOf(row, ...ROW.price),
    currency: priceTokenCurrency(nonEmptyStr(row, ...ROW.priceToken)),
    fare_name: nonEmptyStr(row, ...ROW.fareName),
    booking_url: nonEmptyStr(row, ...ROW.clickUrl) as string,
    booking_post_data: postData(arrOrNull(row, ...ROW.clickParams)),
    offer_token: nonEmptyStr(row, ...ROW.offerToken),
  };
}

function groupTickets(node: unknown[]): unknown[][] | null {
  if (typeof node[0] !== 'number' || !Array.isArray(node[1])) return null;
  const subs = arrOrNull(node, ...GROUP.tickets);
  if (!subs || subs.length < 2 || !subs.every((s) => Array.isArray(s) && isRow(s))) return null;
  return Array.isArray(at(node, 4, 0)) ? (subs as unknown[][]) : null;
}

/** Option rows and separate-ticket groups anywhere in a payload, in document order, deduplicated. */
export function findBookingOptions(data: unknown): FlightBookingOption[] {
  const out: FlightBookingOption[] = [];
  const seen = new Set<string>();
  const add = (o: FlightBookingOption, key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(o);
  };
  const stack: unknown[] = [data];
  while (stack.length) {
    const node = stack.pop();
    if (!Array.isArray(node)) continue;
    const subs = groupTickets(node);
    if (subs) {
      const tickets = subs.map(ticket);
      add(
        { kind: 'separate', tickets, price: moneyOf(node, ...GROUP.price), currency: priceTokenCurrency(nonEmptyStr(node, ...GROUP.priceToken)) },
        JSON.stringify(['separate', tickets.map((t) => [t.seller_code, t.price, t.booking_post_data])]),
      );
      continue;
    }
    if (isRow(node)) {
      const t = ticket(node);
      add({ kind: 'together', ticket: t }, JSON.stringify([t.seller_code, t.price, t.booking_url, t.booking_post_data]));
      continue;
    }
    for (let i = node.length - 1; i >= 0; i--) if (Array.isArray(node[i])) stack.push(node[i]);
  }
  return out;
}

/** Parses a booking page; without any option row in its data blobs the contract has changed (503). */
export function parseFlightBookingPage(html: string): FlightBookingOption[] {
  const keys = [...new Set(afKeys(html))];
  const options = keys.flatMap((key) => findBookingOptions(extractAfData(html, key)));
  if (!options.length) {
    throw new UpstreamContractChanged(SOURCE, `booking page data carries no booking options (callbacks: ${keys.join(',') || 'none'})`);
  }
  return options;
}

/** The currency the options were priced in, when their tokens name one. */
export function bookingCurrency(options: FlightBookingOption[]): string | null {
  for (const o of options) {
    const c = o.kind === 'together' ? o.ticket.currency : (o.currency ?? o.tickets.find((t) => t.currency)?.currency ?? null);
    if (c) return c;
  }
  return null;
}

interface CompatBookingSide {
  book_with: string;
  airline?: boolean;
  marketed_as: string[];
  price: number | null;
  option_title?: string;
  booking_request: { url: string; post_data?: string };
}

export interface CompatBookingOption {
  together?: CompatBookingSide;
  separate_tickets?: true;
  departing?: CompatBookingSide;
  returning?: CompatBookingSide;
}

function side(t: FlightBookingTicket): CompatBookingSide {
  const out: CompatBookingSide = {
    book_with: t.seller,
    marketed_as: t.marketed_as,
    price: t.price,
    booking_request: { url: t.booking_url, ...(t.booking_post_data ? { post_data: t.booking_post_data } : {}) },
  };
  if (t.is_airline !== null) out.airline = t.is_airline;
  if (t.fare_name) out.option_title = t.fare_name;
  return out;
}

/**
 * The compatible API's `booking_options`: `together`, or `separate_tickets` with `departing` /
 * `returning`. Separate tickets for more than two legs have no such shape and are left out.
 */
export function toCompatBookingOptions(options: FlightBookingOption[]): CompatBookingOption[] {
  return options.flatMap((o): CompatBookingOption[] => {
    if (o.kind === 'together') return [{ together: side(o.ticket) }];
    const [departing, returning, ...more] = o.tickets;
    if (!departing || !returning || more.length) return [];
    return [{ separate_tickets: true, departing: side(departing), returning: side(returning) }];
  });
}

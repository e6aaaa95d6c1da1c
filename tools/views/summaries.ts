/**
 * The first line of each MCP tool's text block: what the answer says, in words, for a person or a
 * model that reads the text (the JSON follows it). Each reads the structured answer it summarises
 * through the JSON readers, so only stated strings and numbers reach the words (never an object's
 * "[object Object]" or an "undefined").
 */
import { arr, bool, num, obj, text, textOrNull, type JsonObject, type JsonPath } from '../../src/domain/json.js';
import { SOURCE_NAMES } from '../../src/domain/source-names.js';

type Answer = JsonObject;

const money = (amount: number | null, currency: string | null) =>
  amount !== null && Number.isFinite(amount) ? `${Math.round(amount * 100) / 100} ${currency ?? ''}`.trim() : 'unpriced';
/** An amount and its currency read from the answer. */
const moneyAt = (v: unknown, amount: JsonPath, currency: JsonPath) => money(num(v, ...amount), textOrNull(v, ...currency));
/** "1 match", "3 matches": a count and its noun, its plural the English one (`-es` after s, x, ch, sh). */
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : /(s|x|ch|sh)$/.test(what) ? 'es' : 's'}`;
/** The property's name, or its token where the answer names none. */
const property = (a: Answer) => textOrNull(a, 'name') ?? text(a, 'token');
const stay = (a: Answer) => `${text(a, 'check_in')} → ${text(a, 'check_out')}`;

/** A source alias with the real site it is (`otaone (Booking.com)`); other names as they are. */
const site = (alias: string) => (alias in SOURCE_NAMES ? `${alias} (${SOURCE_NAMES[alias as keyof typeof SOURCE_NAMES]})` : alias);

export const SUMMARIES: Record<string, (a: Answer) => string> = {
  get_credit_balance: (a) =>
    `${textOrNull(a, 'credits', 'remaining') ?? '?'} of ${textOrNull(a, 'credits', 'granted') ?? '?'} credits left on the ${textOrNull(a, 'plan', 'name') ?? textOrNull(a, 'plan', 'code') ?? '?'} plan until ${textOrNull(a, 'period', 'renews_on') ?? textOrNull(a, 'period', 'end') ?? '?'}.`,
  resolve_hotel: (a) => {
    const matches = arr(a, 'matches');
    return matches.length
      ? `${count(matches.length, 'match')} for "${text(a, 'query')}" (${text(a, 'search_status')}); best: ${bestMatch(matches[0])} → property_token ${text(matches, 0, 'token')}.`
      : `No hotel matches "${text(a, 'query')}" (${text(a, 'search_status')}).`;
  },
  get_hotel_details: (a) => {
    const [hotelClass, rating, address] = [textOrNull(a, 'hotel_class'), num(a, 'rating'), textOrNull(a, 'address')];
    return `${text(a, 'name')}${hotelClass ? `, ${hotelClass}` : ''}${rating ? `, rated ${rating} (${num(a, 'reviews') ?? 0} reviews)` : ''}${address ? `, ${address}` : ''}; ${obj(a, 'prices', 'nightly') ? `from ${moneyAt(a, ['prices', 'nightly', 'amount'], ['prices', 'currency'])} a night` : 'no price shown'}.`;
  },
  get_hotel_offers: (a) =>
    arr(a, 'offers').length
      ? `${count(arr(a, 'offers').length, 'offer')} for ${property(a)}, ${stay(a)}; lowest ${moneyAt(a, ['lowest_price_per_night'], ['currency'])} a night.`
      : `No offer for ${property(a)}, ${stay(a)}.`,
  get_hotel_rooms: (a) => `${count(num(a, 'rooms_total') ?? 0, 'room')} from ${count(arr(a, 'sellers').length, 'seller')} for ${property(a)}, ${stay(a)}.`,
  get_stay_price: (a) => {
    const seller = obj(a, 'cheapest_seller');
    return a.available
      ? `${property(a)}, ${stay(a)}: ${moneyAt(a, ['price', 'total', 'amount'], ['price', 'currency'])} in total${seller ? `, cheapest at ${textOrNull(seller, 'raw_source') ?? text(seller, 'source')}` : ''}.`
      : `${property(a)} sells nothing for ${stay(a)}.`;
  },
  get_official_rate: (a) => {
    const offers = arr(a, 'offers');
    return `${count(offers.length, 'offer')} on the hotel's own site (${textOrNull(a, 'engine', 'name') ?? 'engine'})${offers.length ? `; from ${money(Math.min(...offers.map((o) => num(o, 'total') ?? Infinity)), textOrNull(a, 'currency'))}` : ''}.`;
  },
  // each source by its alias and its real site, so that "is Booking cheaper?" maps for a client reading only text
  compare_hotel_prices: (a) =>
    (a.cheapest
      ? `Cheapest: ${site(text(a, 'cheapest', 'source'))} at ${moneyAt(a, ['cheapest', 'total'], ['cheapest', 'currency'])} for ${stay(a)}; ${num(a, 'sources_ok') ?? 0} source(s) priced (${arr(
          a,
          'offers',
        )
          .map((o) => `${site(text(o, 'source'))} ${num(o, 'total') ?? 'unpriced'}`)
          .join(', ')}), ${num(a, 'sources_failed') ?? 0} failed.`
      : `Nothing priced for ${stay(a)}; ${num(a, 'sources_failed') ?? 0} source(s) failed.`) + parityLine(a.parity),
  search_flight_locations: (a) => {
    const places = arr(a, 'locations');
    return `${count(places.length, 'place')}: ${places
      .slice(0, 3)
      .map((l) => {
        const code = textOrNull(l, 'code');
        return `${textOrNull(l, 'name') ?? text(l, 'title')}${code ? ` (${code})` : ''}`;
      })
      .join(', ')}.`;
  },
  get_flight_calendar: (a) => {
    const priced = arr(a, 'calendar')
      .flatMap((d) => {
        const price = num(d, 'price');
        return price !== null ? [{ day: d, price }] : [];
      })
      .sort((x, y) => x.price - y.price);
    const cheapest = priced[0];
    return cheapest
      ? `${count(priced.length, 'date')} priced; cheapest departure ${text(cheapest.day, 'departure')} at ${money(cheapest.price, textOrNull(cheapest.day, 'currency'))}.`
      : 'No date priced.';
  },
  search_rentals: (a) =>
    `${count(arr(a, 'properties').length, 'rental')} for ${textOrNull(a, 'search_information', 'query_displayed') ?? textOrNull(a, 'search_parameters', 'q') ?? 'the area'}${textOrNull(a, 'pagination', 'next_page_token') ? '; more with next_page_token' : ''}.`,
  get_rental_calendar: (a) => {
    const s = obj(a, 'price_summary');
    if (!s) return `${count(arr(a, 'months').length, 'month')} of availability.`;
    const [min, max] = [num(s, 'min_price_per_night'), num(s, 'max_price_per_night')];
    return `${num(s, 'available') ?? 0} of ${num(s, 'days') ?? 0} days available, ${num(s, 'bookable') ?? 0} bookable; ${num(s, 'priced') ?? 0} priced${min !== null && max !== null ? ` at ${min}–${max} a night` : ''}.`;
  },
  get_rental_quote: (a) =>
    bool(a, 'property', 'available') === false
      ? `Not bookable as asked: ${textOrNull(a, 'property', 'unavailable_reason') ?? 'no reason given'}.`
      : `${moneyAt(a, ['property', 'total'], ['property', 'currency'])} in total (${moneyAt(a, ['property', 'price_per_night'], ['property', 'currency'])} a night), ${count(arr(a, 'offers').length, 'offer')}.`,
};

/** The best match by its name when the answer states one (verify reads it), else by how well its listing matched the query. */
function bestMatch(m: unknown): string {
  const name = textOrNull(m, 'name');
  if (name) return name;
  const score = num(m, 'name_score');
  return score === null ? 'the first candidate' : `the first candidate (name score ${score})`;
}

/** Parity in words: who undercuts the official site and by how much, or why it could not be told. */
function parityLine(value: unknown): string {
  const p = obj(value);
  if (!p) return '';
  if (p.status === 'undercut')
    return ` Parity: undercut by ${arr(p, 'undercuts')
      .map((u) => `${text(u, 'source')} (${money(num(u, 'amount'), textOrNull(p, 'basis', 'currency'))} less)`)
      .join(', ')}.`;
  if (p.status === 'official_cheapest') return ' Parity: the official site is cheapest.';
  if (p.status === 'official_sold_out') return ` Parity: ${textOrNull(p, 'reason') ?? 'the official site is sold out'}.`;
  return ` Parity: not comparable, ${textOrNull(p, 'reason') ?? 'no reason given'}.`;
}

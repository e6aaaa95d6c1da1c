/**
 * The first line of each MCP tool's text block: what the answer says, in words, for a person or a
 * model that reads the text (the JSON follows it). Each reads the structured answer it summarises.
 */
import { arr, at, num, obj, type JsonObject } from '../../src/domain/json.js';

type Answer = JsonObject;

const money = (amount: unknown, currency: unknown) => (typeof amount === 'number' ? `${Math.round(amount * 100) / 100} ${typeof currency === 'string' ? currency : ''}`.trim() : 'unpriced');
const count = (n: unknown, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

export const SUMMARIES: Record<string, (a: Answer) => string> = {
  get_credit_balance: (a) =>
    `${at(a, 'credits', 'remaining') ?? '?'} of ${at(a, 'credits', 'granted') ?? '?'} credits left on the ${at(a, 'plan', 'name') ?? at(a, 'plan', 'code') ?? '?'} plan until ${at(a, 'period', 'renews_on') ?? at(a, 'period', 'end') ?? '?'}.`,
  resolve_hotel: (a) => {
    const matches = arr(a.matches);
    return matches.length
      ? `${count(matches.length, 'match')} for "${a.query}" (${a.search_status}); best: ${at(matches, 0, 'name') ?? 'unnamed'} → property_token ${at(matches, 0, 'token')}.`
      : `No hotel matches "${a.query}" (${a.search_status}).`;
  },
  get_hotel_details: (a) =>
    `${a.name}${a.hotel_class ? `, ${a.hotel_class}` : ''}${a.rating ? `, rated ${a.rating} (${a.reviews ?? 0} reviews)` : ''}${a.address ? `, ${a.address}` : ''}; ${at(a, 'prices', 'nightly') ? `from ${money(at(a, 'prices', 'nightly', 'amount'), at(a, 'prices', 'currency'))} a night` : 'no price shown'}.`,
  get_hotel_offers: (a) =>
    arr(a.offers).length
      ? `${count(arr(a.offers).length, 'offer')} for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}; lowest ${money(a.lowest_price_per_night, a.currency)} a night.`
      : `No offer for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}.`,
  get_hotel_rooms: (a) => `${count(a.rooms_total ?? 0, 'room')} from ${count(arr(a.sellers).length, 'seller')} for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}.`,
  get_stay_price: (a) =>
    a.available
      ? `${a.name ?? a.token}, ${a.check_in} → ${a.check_out}: ${money(at(a, 'price', 'total', 'amount'), at(a, 'price', 'currency'))} in total${a.cheapest_seller ? `, cheapest at ${at(a, 'cheapest_seller', 'raw_source') ?? at(a, 'cheapest_seller', 'source')}` : ''}.`
      : `${a.name ?? a.token} sells nothing for ${a.check_in} → ${a.check_out}.`,
  get_official_rate: (a) => {
    const offers = arr(a.offers);
    return `${count(offers.length, 'offer')} on the hotel's own site (${at(a, 'engine', 'name') ?? 'engine'})${offers.length ? `; from ${money(Math.min(...offers.map((o) => num(o, 'total') ?? Infinity)), a.currency)}` : ''}.`;
  },
  compare_hotel_prices: (a) =>
    (a.cheapest
      ? `Cheapest: ${at(a, 'cheapest', 'source')} at ${money(at(a, 'cheapest', 'total'), at(a, 'cheapest', 'currency'))} for ${a.check_in} → ${a.check_out}; ${a.sources_ok} source(s) priced, ${a.sources_failed} failed.`
      : `Nothing priced for ${a.check_in} → ${a.check_out}; ${a.sources_failed} source(s) failed.`) + parityLine(a.parity),
  get_booking_options: (a) => {
    const options = arr(a.booking_options);
    const prices = options.map((o) => at(o, 'together', 'price') ?? at(o, 'departing', 'price')).filter((p): p is number => typeof p === 'number');
    return `${count(options.length, 'booking option')}${prices.length ? `, from ${money(Math.min(...prices), at(a, 'pricing', 'currency'))}` : ''}; booking_request.url is where to book.`;
  },
  search_flight_locations: (a) => {
    const places = arr(a.locations);
    return `${count(places.length, 'place')}: ${places
      .slice(0, 3)
      .map((l) => `${at(l, 'name') ?? at(l, 'title')}${at(l, 'code') ? ` (${at(l, 'code')})` : ''}`)
      .join(', ')}.`;
  },
  get_flight_calendar: (a) => {
    const priced = arr(a.calendar)
      .flatMap((d) => {
        const price = at(d, 'price');
        return typeof price === 'number' ? [{ day: d, price }] : [];
      })
      .sort((x, y) => x.price - y.price);
    const cheapest = priced[0];
    return cheapest ? `${count(priced.length, 'date')} priced; cheapest departure ${at(cheapest.day, 'departure')} at ${money(cheapest.price, at(cheapest.day, 'currency'))}.` : 'No date priced.';
  },
  search_rentals: (a) =>
    `${count(arr(a.properties).length, 'rental')} for ${at(a, 'search_information', 'query_displayed') ?? at(a, 'search_parameters', 'q') ?? 'the area'}${at(a, 'pagination', 'next_page_token') ? '; more with next_page_token' : ''}.`,
  get_rental_calendar: (a) => {
    const s = obj(a.price_summary);
    return s
      ? `${s.available} of ${s.days} days available, ${s.bookable} bookable; ${s.priced} priced${s.min_price_per_night !== undefined ? ` at ${s.min_price_per_night}–${s.max_price_per_night} a night` : ''}.`
      : `${count(arr(a.months).length, 'month')} of availability.`;
  },
  get_rental_quote: (a) =>
    at(a, 'property', 'available') === false
      ? `Not bookable as asked: ${at(a, 'property', 'unavailable_reason') ?? 'no reason given'}.`
      : `${money(at(a, 'property', 'total'), at(a, 'property', 'currency'))} in total (${money(at(a, 'property', 'price_per_night'), at(a, 'property', 'currency'))} a night), ${count(arr(a.offers).length, 'offer')}.`,
};

/** Parity in words: who undercuts the official site and by how much, or why it could not be told. */
function parityLine(value: unknown): string {
  const p = obj(value);
  if (!p) return '';
  if (p.status === 'undercut') return ` Parity: undercut by ${arr(p.undercuts).map((u) => `${at(u, 'source')} (${money(at(u, 'amount'), at(p, 'basis', 'currency'))} less)`).join(', ')}.`;
  if (p.status === 'official_cheapest') return ' Parity: the official site is cheapest.';
  return ` Parity: not comparable, ${p.reason}.`;
}

/**
 * The first line of each MCP tool's text block: what the answer says, in words, for a person or a
 * model that reads the text (the JSON follows it). Each reads the structured answer it summarises.
 */
type Answer = Record<string, any>;

const money = (amount: unknown, currency: unknown) => (typeof amount === 'number' ? `${Math.round(amount * 100) / 100} ${typeof currency === 'string' ? currency : ''}`.trim() : 'unpriced');
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

export const SUMMARIES: Record<string, (a: Answer) => string> = {
  get_credit_balance: (a) => `${a.credits?.remaining ?? '?'} of ${a.credits?.granted ?? '?'} credits left on the ${a.plan?.name ?? a.plan?.code ?? '?'} plan until ${a.period?.renews_on ?? a.period?.end ?? '?'}.`,
  resolve_hotel: (a) =>
    a.matches?.length ? `${count(a.matches.length, 'match')} for "${a.query}" (${a.search_status}); best: ${a.matches[0].name ?? 'unnamed'} → property_token ${a.matches[0].token}.` : `No hotel matches "${a.query}" (${a.search_status}).`,
  get_hotel_details: (a) => `${a.name}${a.hotel_class ? `, ${a.hotel_class}` : ''}${a.rating ? `, rated ${a.rating} (${a.reviews ?? 0} reviews)` : ''}${a.address ? `, ${a.address}` : ''}; ${a.prices?.nightly ? `from ${money(a.prices.nightly.amount, a.prices.currency)} a night` : 'no price shown'}.`,
  get_hotel_offers: (a) =>
    a.offers?.length
      ? `${count(a.offers.length, 'offer')} for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}; lowest ${money(a.lowest_price_per_night, a.currency)} a night.`
      : `No offer for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}.`,
  get_hotel_rooms: (a) => `${count(a.rooms_total ?? 0, 'room')} from ${count(a.sellers?.length ?? 0, 'seller')} for ${a.name ?? a.token}, ${a.check_in} → ${a.check_out}.`,
  get_stay_price: (a) =>
    a.available
      ? `${a.name ?? a.token}, ${a.check_in} → ${a.check_out}: ${money(a.price?.total?.amount, a.price?.currency)} in total${a.cheapest_seller ? `, cheapest at ${a.cheapest_seller.raw_source ?? a.cheapest_seller.source}` : ''}.`
      : `${a.name ?? a.token} sells nothing for ${a.check_in} → ${a.check_out}.`,
  get_official_rate: (a) => `${count(a.offers?.length ?? 0, 'offer')} on the hotel's own site (${a.engine?.name ?? 'engine'})${a.offers?.length ? `; from ${money(Math.min(...a.offers.map((o: Answer) => o.total ?? Infinity)), a.currency)}` : ''}.`,
  compare_hotel_prices: (a) =>
    (a.cheapest ? `Cheapest: ${a.cheapest.source} at ${money(a.cheapest.total, a.cheapest.currency)} for ${a.check_in} → ${a.check_out}; ${a.sources_ok} source(s) priced, ${a.sources_failed} failed.` : `Nothing priced for ${a.check_in} → ${a.check_out}; ${a.sources_failed} source(s) failed.`) + parityLine(a.parity),
  get_booking_options: (a) => {
    const prices = (a.booking_options ?? []).map((o: Answer) => o.together?.price ?? o.departing?.price).filter((p: unknown) => typeof p === 'number');
    return `${count(a.booking_options?.length ?? 0, 'booking option')}${prices.length ? `, from ${money(Math.min(...prices), a.pricing?.currency)}` : ''}; booking_request.url is where to book.`;
  },
  search_flight_locations: (a) => `${count(a.locations?.length ?? 0, 'place')}: ${(a.locations ?? []).slice(0, 3).map((l: Answer) => `${l.name ?? l.title}${l.code ? ` (${l.code})` : ''}`).join(', ')}.`,
  get_flight_calendar: (a) => {
    const priced = (a.calendar ?? []).filter((d: Answer) => typeof d.price === 'number').sort((x: Answer, y: Answer) => x.price - y.price);
    return priced.length ? `${count(priced.length, 'date')} priced; cheapest departure ${priced[0].departure} at ${money(priced[0].price, priced[0].currency)}.` : 'No date priced.';
  },
  search_rentals: (a) => `${count(a.properties?.length ?? 0, 'rental')} for ${a.search_information?.query_displayed ?? a.search_parameters?.q ?? 'the area'}${a.pagination?.next_page_token ? '; more with next_page_token' : ''}.`,
  get_rental_calendar: (a) => {
    const s = a.price_summary;
    return s ? `${s.available} of ${s.days} days available, ${s.bookable} bookable; ${s.priced} priced${s.min_price_per_night !== undefined ? ` at ${s.min_price_per_night}–${s.max_price_per_night} a night` : ''}.` : `${count(a.months?.length ?? 0, 'month')} of availability.`;
  },
  get_rental_quote: (a) =>
    a.property?.available === false
      ? `Not bookable as asked: ${a.property.unavailable_reason ?? 'no reason given'}.`
      : `${money(a.property?.total, a.property?.currency)} in total (${money(a.property?.price_per_night, a.property?.currency)} a night), ${count(a.offers?.length ?? 0, 'offer')}.`,
};

/** Parity in words: who undercuts the official site and by how much, or why it could not be told. */
function parityLine(p: Answer | undefined): string {
  if (!p) return '';
  if (p.status === 'undercut') return ` Parity: undercut by ${p.undercuts.map((u: Answer) => `${u.source} (${money(u.amount, p.basis.currency)} less)`).join(', ')}.`;
  if (p.status === 'official_cheapest') return ' Parity: the official site is cheapest.';
  return ` Parity: not comparable, ${p.reason}.`;
}

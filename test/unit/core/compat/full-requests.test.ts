import { describe, expect, it } from 'vitest';
import { resolveSearch } from '../../../../src/core/compat/engine.js';
import { InvalidInput } from '../../../../src/domain/errors.js';
import { SEARCHAPI_ENGINES } from '../../../../tools/compat-engines.js';
import { shiftFrom } from '../../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-12-01');

/**
 * A full request of every engine we serve, every parameter its documentation lists (its n8n
 * node's parameter set, the engine docs pages) with a value other than its neutral one, is
 * accepted: applied where we can, named in `warnings` where its effect is one the caller can do
 * without. Only the parameters that would change what the answer means are refused, each listed
 * in REFUSED with the engine (and in the README's engine table).
 */
const D1 = S('2026-12-01');
const D2 = S('2026-12-03');
const FULL: Record<string, Record<string, string>> = {
  google_hotels: {
    q: 'Bali Resorts',
    check_in_date: D1,
    check_out_date: D2,
    adults: '2',
    children_ages: '5,8',
    currency: 'USD',
    gl: 'us',
    hl: 'en',
    sort_by: 'lowest_price',
    price_min: '50',
    price_max: '500',
    rating: '8',
    hotel_class: '4,5',
    amenities: '4,12',
    property_type: 'hotel',
    free_cancellation: 'true',
    special_offers: 'true',
    eco_certified: 'true',
    for_displaced_individuals: 'true',
    brands: '33',
    property_types: '17',
    bedrooms: '2',
    bathrooms: '1',
    zero_retention: 'true',
    no_cache: 'true',
    async: 'false',
  },
  google_hotels_property: {
    property_token: 'ChkIqM3w0uGI0YZxGg0vZy8xMWJ4M3B6cDlyEAE',
    check_in_date: D1,
    check_out_date: D2,
    adults: '2',
    children_ages: '5',
    currency: 'EUR',
    gl: 'fr',
    hl: 'fr',
    free_cancellation: 'true',
    expanded_search: 'true',
  },
  google_flights: {
    departure_id: 'JFK',
    arrival_id: 'CDG',
    outbound_date: D1,
    return_date: D2,
    flight_type: 'round_trip',
    travel_class: 'economy',
    stops: 'one_stop_or_fewer',
    adults: '2',
    children: '1',
    infants_in_seat: '0',
    infants_on_lap: '1',
    currency: 'USD',
    hl: 'en',
    gl: 'us',
    sort_by: 'price',
    show_cheapest_flights: 'true',
    max_price: '1500',
    emissions: 'less',
    included_airlines: 'AF,DL',
    included_connecting_airports: 'AMS',
    outbound_times: '4,18',
    return_times: '6,20',
    layover_duration_min: '60',
    layover_duration_max: '300',
    max_flight_duration: '900',
    separate_tickets: 'true',
    show_hidden_flights: 'true',
  },
  google_flights_calendar: {
    departure_id: 'JFK',
    arrival_id: 'CDG',
    outbound_date: D1,
    return_date: D2,
    outbound_date_start: D1,
    outbound_date_end: S('2026-12-20'),
    flight_type: 'round_trip',
    travel_class: 'economy',
    stops: 'nonstop',
    adults: '1',
    currency: 'USD',
    hl: 'en',
    gl: 'us',
    max_price: '900',
    excluded_airlines: 'UA',
  },
  google_flights_location_search: { q: 'London', hl: 'en', gl: 'gb', search_type: 'arrival' },
  airbnb: {
    q: 'Lyon',
    airbnb_domain: 'airbnb.fr',
    currency: 'EUR',
    check_in_date: D1,
    check_out_date: D2,
    adults: '2',
    children: '1',
    infants: '1',
    pets: '1',
    include_taxes: 'true',
    price_min: '50',
    price_max: '400',
    type_of_place: 'entire_home',
    property_types: 'apartment,house',
    bedrooms: '1',
    beds: '2',
    bathrooms: '1',
    amenities: 'wifi,kitchen',
    hl: 'fr',
    gl: 'fr',
  },
  airbnb_property_availability_calendar: {
    property_id: '1344016074576611955',
    airbnb_domain: 'airbnb.fr',
    currency: 'EUR',
    adults: '2',
    children: '1',
    infants: '0',
    pets: '1',
    start_month: '12',
    start_year: '2026',
    months: '2',
    hl: 'fr',
    gl: 'fr',
  },
  youtube: { q: 'surface go review', hl: 'en', gl: 'US', sp: 'EgIQAQ%3D%3D' },
  youtube_video: { video_id: 'https://youtu.be/GJLlxj_dtq8', hl: 'en', gl: 'US' },
  youtube_transcripts: { video_id: 'GJLlxj_dtq8', lang: 'en', transcript_type: 'auto', transcript_name: 'English', only_available: 'true' },
  youtube_channel: { channel_id: 'UCTwECeGqMZee77BjdoYtI2Q', hl: 'en', gl: 'US' },
  youtube_channel_videos: { channel_id: 'UCTwECeGqMZee77BjdoYtI2Q', hl: 'en', gl: 'US' },
  apple_app_store: { term: 'notes', store: 'us', num: '20', category_id: '6007', sort_by: 'newest' },
  walmart_search: { q: 'coffee maker', page: '2', sort_by: 'price_low' },
  google_trends: { q: 'pizza', geo: 'US', time: 'today 1-m', hl: 'en', tz: '-120', data_type: 'TIMESERIES' },
  google_jobs: { q: 'barista', gl: 'us', hl: 'en', location: 'Austin, Texas', google_domain: 'google.com' },
  booking: {
    q: 'Belgrade',
    check_in_date: D1,
    check_out_date: D2,
    adults: '2',
    rooms: '1',
    currency: 'EUR',
    language: 'en-gb',
    sort_by: 'price_low_to_high',
    free_cancellation: 'true',
  },
  booking_property: {
    url: 'https://www.booking.com/hotel/rs/hostel-sara-beograd1.en-gb.html',
    check_in_date: D1,
    check_out_date: D2,
    adults: '2',
    rooms: '1',
    currency: 'EUR',
    language: 'en-gb',
  },
  google_hotels_price_calendar: {
    property_token: 'ChkIqM3w0uGI0YZxGg0vZy8xMWJ4M3B6cDlyEAE',
    check_in_date: D1,
    check_out_date: S('2026-12-02'),
    currency: 'USD',
    gl: 'us',
    hl: 'en',
    adults: '2',
  },
};

/** Parameters refused whatever their value but the neutral one: the answer would mean something else. */
const REFUSED: Record<string, string[]> = {
  google_hotels: ['bounding_box'],
  google_flights: ['carry_on_bags', 'checked_bags'],
  google_flights_calendar: ['return_date_start', 'return_date_end', 'carry_on_bags', 'checked_bags'],
  google_trends: ['data_type', 'cat', 'gprop'],
  google_jobs: ['next_page_token'],
  booking: ['children', 'children_ages'],
  booking_property: ['children', 'children_ages'],
  google_hotels_price_calendar: ['children_ages'],
};

describe('the documented full request of every engine served', () => {
  it('covers every engine of the table', () => {
    expect(Object.keys(FULL).sort()).toEqual(SEARCHAPI_ENGINES.map((e) => e.name).sort());
  });

  for (const engine of SEARCHAPI_ENGINES) {
    it(`${engine.name}: accepted; what is not applied is named in warnings`, () => {
      const params = { engine: engine.name, ...FULL[engine.name] };
      let r: ReturnType<typeof resolveSearch>;
      try {
        r = resolveSearch(engine, params, () => 'query');
      } catch (err) {
        throw new Error(`${engine.name}: ${JSON.stringify(err instanceof InvalidInput ? err.detail : String(err))}`, { cause: err });
      }
      for (const [name, rule] of Object.entries(engine.params)) {
        if ((rule.notApplied || rule.noEffect) && name in params) expect(r.warnings.some((w) => w.startsWith(`${name}: `))).toBe(true);
      }
    });
  }

  it('the refused parameters are exactly those whose absence would change the answer’s meaning', () => {
    const refused = Object.fromEntries(
      SEARCHAPI_ENGINES.map((e) => [
        e.name,
        Object.entries(e.params)
          .filter(([, r]) => r.unsupported)
          .map(([n]) => n),
      ]).filter(([, l]) => l.length),
    );
    expect(refused).toEqual(REFUSED);
  });
});

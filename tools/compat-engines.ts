import type { CompatEngine, ParamRule } from '../src/core/compat/engine.js';
import type { Tool } from '../src/core/define-tool.js';
import { parseOtaonePageUrl } from '../src/sources/otaone/page-url.js';
import { getVideo, getVideoChannel, getVideoTranscript, searchVideos } from './video.js';
import { searchApps } from './apps.js';
import { serpCalendar } from './calendar.js';
import { bookingProperties, googleJobs, youtubeTranscripts, youtubeVideo, youtubeVideos } from './compat-shapes.js';
import { getBookingOptions, getFlightCalendar, getReturnFlights, searchFlightLocations, searchFlights } from './flights.js';
import { serpHotels, serpHotelsProperty } from './hotels.js';
import { searchJobCards } from './job-search.js';
import { otaoneRooms } from './ota.js';
import { otaoneSearch } from './ota-search.js';
import { rentalCalendarSerp, searchRentals } from './rentals.js';
import { searchRetail } from './retail.js';
import { getTrendsInterest } from './trends.js';

/*
 * The translation table of the compatible search API (SearchApi.io): each of its engines this
 * service can answer → our operation's one descriptor, its parameter names and value forms, and
 * its response shape where ours differs. Names and parameters: its engine definitions as its own
 * n8n node and Ruby client publish them, its announcements (the 2026 Booking.com and hotel price
 * calendar engines) and its recorded replies (../shared/fixtures/searchapi).
 */

const same: ParamRule = {};
const unsupported = (reason: string, neutral?: readonly string[]): ParamRule => ({ unsupported: reason, ...(neutral ? { neutral } : {}) });
const notApplied = (reason: string, neutral?: readonly string[]): ParamRule => ({ notApplied: reason, ...(neutral ? { neutral } : {}) });

/** Flight filters whose effect the caller can apply to the answer, which carries every field they test. */
const flightFilters: Record<string, ParamRule> = {
  max_price: notApplied('every fare is listed; filter on price'),
  emissions: notApplied('itineraries of any emissions are listed; filter on carbon_emissions'),
  included_airlines: notApplied('every airline is listed; filter on flights[].airline'),
  excluded_airlines: notApplied('every airline is listed; filter on flights[].airline'),
  included_connecting_airports: notApplied('every connection is listed; filter on layovers[].id'),
  excluded_connecting_airports: notApplied('every connection is listed; filter on layovers[].id'),
  outbound_times: notApplied('departures at any time are listed; filter on flights[].departure_airport.time'),
  return_times: notApplied('departures at any time are listed; filter on flights[].departure_airport.time'),
  layover_duration_min: notApplied('layovers of any length are listed; filter on layovers[].duration'),
  layover_duration_max: notApplied('layovers of any length are listed; filter on layovers[].duration'),
  max_flight_duration: notApplied('itineraries of any length are listed; filter on total_duration'),
  separate_tickets: notApplied('itineraries are those the results page lists'),
  show_hidden_flights: notApplied('itineraries are those the results page lists'),
  // a fare with bags is another price, which the answer cannot give
  carry_on_bags: unsupported('fares are priced without bags; send the search without it'),
  checked_bags: unsupported('fares are priced without bags; send the search without it'),
};
const flightSearch: Record<string, ParamRule> = Object.fromEntries(
  [
    'departure_id',
    'arrival_id',
    'outbound_date',
    'return_date',
    'flight_type',
    'travel_class',
    'stops',
    'adults',
    'children',
    'infants_in_seat',
    'infants_on_lap',
    'currency',
    'hl',
    'gl',
  ].map((p) => [p, same]),
);
const FLIGHT_ECHO = [
  'departure_id',
  'arrival_id',
  'currency',
  'hl',
  'gl',
  'outbound_date',
  'return_date',
  'flight_type',
  'travel_class',
  'stops',
  'adults',
  'children',
  'infants_in_seat',
  'infants_on_lap',
];
/** What a departure or booking token fixes: the search it came from. */
const TOKEN_CARRIES = [
  'departure_id',
  'arrival_id',
  'outbound_date',
  'return_date',
  'flight_type',
  'multi_city_json',
  'travel_class',
  'stops',
  'adults',
  'children',
  'infants_in_seat',
  'infants_on_lap',
];

const HOTEL_FILTER_NOT_APPLIED = 'the answer also lists properties the filter would leave out';
const hotelFilters: Record<string, ParamRule> = Object.fromEntries(
  ['free_cancellation', 'special_offers', 'eco_certified', 'for_displaced_individuals', 'brands', 'property_types', 'bedrooms', 'bathrooms'].map((p) => [
    p,
    notApplied(HOTEL_FILTER_NOT_APPLIED),
  ]),
);

/** The stay of that API's Booking.com engines, as the first OTA's operations take it. */
const bookingStay: Record<string, ParamRule> = {
  check_in_date: { to: 'check_in' },
  check_out_date: { via: 'nights', doc: 'with check_in_date: the number of nights' },
  adults: same,
  rooms: same,
  currency: same,
  children: unsupported('prices are asked for adults only; children change the price'),
  children_ages: unsupported('prices are asked for adults only; children change the price'),
};

/** Nights between that API's check_in_date and check_out_date, for operations that take a number of nights. */
function nightsBetween(p: Record<string, unknown>): Record<string, unknown> {
  const from = Date.parse(`${String(p.check_in_date)}T00:00:00Z`);
  const to = Date.parse(`${String(p.check_out_date)}T00:00:00Z`);
  if (p.check_out_date === undefined) return {};
  // an unreadable date goes on as text, so that validation names check_out_date
  return { nights: Number.isFinite(from) && Number.isFinite(to) ? Math.round((to - from) / 86_400_000) : p.check_out_date };
}

const RENTAL_LOCALE = 'the rental platform takes its language and market from airbnb_domain';
const airbnbCommon: Record<string, ParamRule> = {
  airbnb_domain: { to: 'rentaltwo_domain', doc: 'regional host of the rental platform, e.g. airbnb.co.uk' },
  currency: same,
  adults: same,
  children: same,
  infants: same,
  pets: same,
  hl: { noEffect: RENTAL_LOCALE },
  gl: { noEffect: RENTAL_LOCALE },
};

export const SEARCHAPI_ENGINES: CompatEngine[] = [
  {
    name: 'google_hotels',
    tool: serpHotels,
    params: {
      q: same,
      bounding_box: unsupported('a map area is not searched; send q'),
      check_in_date: same,
      check_out_date: same,
      adults: same,
      children_ages: same,
      currency: same,
      gl: same,
      hl: same,
      sort_by: same,
      price_min: { to: 'min_price' },
      price_max: { to: 'max_price' },
      rating: same,
      hotel_class: same,
      amenities: same,
      property_type: same,
      next_page_token: same,
      ...hotelFilters,
    },
    numbers: ['adults', 'price_min', 'price_max', 'rating'],
  },
  {
    name: 'google_hotels_property',
    tool: serpHotelsProperty,
    params: {
      property_token: same,
      check_in_date: same,
      check_out_date: same,
      adults: same,
      children_ages: same,
      currency: same,
      gl: same,
      hl: same,
      free_cancellation: notApplied('every offer is listed; filter all_offers on free_cancellation'),
      expanded_search: notApplied('vacation rentals are priced as the property page lists them'),
    },
    numbers: ['adults'],
  },
  {
    name: 'google_flights',
    tool: (p) => (p.booking_token !== undefined ? getBookingOptions : p.departure_token !== undefined ? getReturnFlights : searchFlights),
    params: {
      ...flightSearch,
      multi_city_json: same,
      departure_token: { doc: 'the next leg of a round trip or multi-city search (a departure_token of our answer)' },
      booking_token: { doc: 'the booking options of a chosen itinerary (a booking_token of our answer)' },
      sort_by: notApplied('results come in the engine’s own order (top flights first); sort on price or total_duration', ['top_flights']),
      show_cheapest_flights: notApplied('results come in the engine’s own order (top flights first); sort on price'),
      ...flightFilters,
    },
    echoDefaults: FLIGHT_ECHO,
    carriedBy: (tool) => (tool === searchFlights ? null : { params: TOKEN_CARRIES, reason: 'the token carries the search it came from' }),
  },
  {
    name: 'google_flights_calendar',
    tool: getFlightCalendar,
    params: {
      ...flightSearch,
      outbound_date_start: same,
      outbound_date_end: same,
      return_date_start: unsupported('return dates follow the length of stay of outbound_date and return_date'),
      return_date_end: unsupported('return dates follow the length of stay of outbound_date and return_date'),
      ...flightFilters,
    },
    echoDefaults: FLIGHT_ECHO,
  },
  {
    name: 'google_flights_location_search',
    tool: searchFlightLocations,
    params: { q: same, hl: same, gl: same, search_type: notApplied('suggestions are those of the departure box', ['departure']) },
  },
  {
    name: 'airbnb',
    tool: searchRentals,
    params: {
      ...airbnbCommon,
      q: same,
      bounding_box: same,
      check_in_date: same,
      check_out_date: same,
      time_period: same,
      include_taxes: same,
      price_min: same,
      price_max: same,
      type_of_place: same,
      property_types: same,
      bedrooms: same,
      beds: same,
      bathrooms: same,
      amenities: same,
      next_page_token: same,
    },
  },
  {
    name: 'airbnb_property_availability_calendar',
    tool: rentalCalendarSerp,
    params: {
      ...airbnbCommon,
      property_id: same,
      start_month: same,
      start_year: same,
      months: same,
      price_nights: same,
      max_price_quotes: same,
      stay_nights: same,
    },
  },
  {
    name: 'youtube',
    tool: searchVideos,
    params: {
      q: same,
      hl: same,
      gl: same,
      sp: { to: 'page_token', doc: 'the next page: pagination.next_page_token of our previous answer (the platform’s filter codes are not applied)' },
      next_page_token: { to: 'page_token' },
    },
    reshape: youtubeVideos,
  },
  { name: 'youtube_video', tool: getVideo, params: { video_id: same, hl: same, gl: same }, reshape: youtubeVideo },
  {
    name: 'youtube_transcripts',
    tool: getVideoTranscript,
    params: {
      video_id: same,
      lang: same,
      transcript_type: notApplied('creator captions are preferred over auto-generated ones; language.kind says which was given', ['manual']),
      transcript_name: notApplied('tracks are chosen by lang; available_languages lists every track'),
      only_available: notApplied('a missing lang answers 404 listing the available tracks; send lang from that list'),
    },
    reshape: youtubeTranscripts,
  },
  { name: 'youtube_channel', tool: getVideoChannel, params: { channel_id: { to: 'channel' }, hl: same, gl: same }, reshape: youtubeVideos },
  {
    name: 'youtube_channel_videos',
    tool: getVideoChannel,
    params: { channel_id: { to: 'channel' }, next_page_token: { to: 'page_token' }, hl: same, gl: same },
    reshape: youtubeVideos,
  },
  {
    name: 'apple_app_store',
    tool: searchApps,
    params: {
      term: same,
      store: { to: 'country', doc: 'storefront country, e.g. us' },
      country: same,
      num: { to: 'limit' },
      category_id: notApplied('apps of every category are listed; filter on genres'),
      sort_by: notApplied('apps come in the store’s own order'),
    },
  },
  { name: 'walmart_search', tool: searchRetail, params: { q: same, page: same, sort_by: { to: 'sort' } } },
  {
    name: 'google_trends',
    tool: getTrendsInterest,
    params: {
      q: { to: 'keyword' },
      geo: same,
      time: { to: 'time_range' },
      hl: same,
      data_type: unsupported('only interest over time is answered', ['TIMESERIES']),
      cat: unsupported('categories are not applied'),
      gprop: unsupported('only web search interest is answered'),
      tz: { noEffect: 'dates are calendar days as the series states them' },
    },
  },
  {
    name: 'google_jobs',
    tool: searchJobCards,
    params: {
      q: same,
      gl: same,
      hl: same,
      location: notApplied('jobs are searched by q alone; put the place in q, or filter on location'),
      uule: notApplied('jobs are searched by q alone; put the place in q, or filter on location'),
      google_domain: { noEffect: 'the search engine’s main domain is used' },
      next_page_token: unsupported('one page of job cards is answered'),
    },
    reshape: googleJobs,
  },
  {
    // Booking.com Search (SearchApi, 2026): the first OTA's results page
    name: 'booking',
    tool: otaoneSearch,
    params: {
      q: { to: 'query' },
      ...bookingStay,
      language: { noEffect: 'the results page is read in English' },
      sort_by: notApplied('results come in the site’s own order; sort on extracted_price or rating'),
      free_cancellation: notApplied('every property is listed; filter on has_free_cancellation'),
    },
    derive: nightsBetween,
    reshape: bookingProperties,
  },
  {
    // Booking.com Property (SearchApi, 2026): one property page's room table
    name: 'booking_property',
    tool: otaoneRooms,
    params: {
      url: { via: 'pagename', doc: 'the property’s page URL on the first OTA (/hotel/<cc>/<page name>.html)' },
      ...bookingStay,
      language: { noEffect: 'the property page is read in English' },
    },
    derive: (p) => ({ ...nightsBetween(p), ...otaonePage(p.url) }),
  },
  {
    // Google Hotels Price Calendar (SearchApi, October 2026): one property's price per check-in date
    name: 'google_hotels_price_calendar',
    tool: serpCalendar,
    params: {
      property_token: same,
      check_in_date: { to: 'start', doc: 'first check-in date of the calendar' },
      check_out_date: { via: 'los', doc: 'with check_in_date: the nights of each priced stay' },
      currency: same,
      gl: { to: 'country' },
      hl: { noEffect: 'calendar prices carry no language' },
      adults: same,
      children_ages: unsupported('calendar stays are priced for adults only; children change the price'),
    },
    derive: (p) => (p.check_out_date === undefined ? {} : { los: nightsBetween(p).nights }),
    numbers: ['adults'],
  },
];

/** That API's Booking.com `url` as the first OTA's page name and country; unreadable text goes on to be refused by validation. */
function otaonePage(url: unknown): Record<string, unknown> {
  if (url === undefined) return {};
  const ref = typeof url === 'string' ? parseOtaonePageUrl(url) : null;
  return ref ? { pagename: ref.pagename, country: ref.country } : { pagename: '' };
}

/** Our own engine names (the /v1/serp/<alias> operations), answering in our shape. */
const own = (name: string, tool: Tool): CompatEngine => ({ name, tool, params: {}, ownEcho: true });
export const ALIAS_ENGINES: CompatEngine[] = [
  own('rentaltwo', searchRentals),
  own('rentaltwo_property_availability_calendar', rentalCalendarSerp),
  own('metasearch_hotels', serpHotels),
  own('metasearch_hotels_property', serpHotelsProperty),
  own('metasearch_hotels_calendar', serpCalendar),
  own('metasearch_flights', searchFlights),
  own('metasearch_flights_return', getReturnFlights),
  own('metasearch_flights_booking', getBookingOptions),
  own('metasearch_flights_location_search', searchFlightLocations),
  own('metasearch_flights_calendar', getFlightCalendar),
];

export const COMPAT_ENGINES: CompatEngine[] = [...SEARCHAPI_ENGINES, ...ALIAS_ENGINES];

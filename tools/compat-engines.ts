import type { CompatEngine, ParamRule } from '../src/compat/engine.js';
import type { Tool } from '../src/registry/define-tool.js';
import { getVideo, getVideoChannel, getVideoTranscript, searchVideos } from './video.js';
import { searchApps } from './apps.js';
import { serpCalendar } from './calendar.js';
import { getBookingOptions, getFlightCalendar, getReturnFlights, searchFlightLocations, searchFlights } from './flights.js';
import { serpHotels, serpHotelsProperty } from './hotels.js';
import { searchJobCards } from './job-search.js';
import { rentalCalendarSerp, searchRentals } from './rentals.js';
import { searchRetail } from './retail.js';
import { getTrendsInterest } from './trends.js';

/*
 * The translation table of the compatible search API (SearchApi.io): each of its engines this
 * service can answer → our operation's one descriptor, its parameter names and value forms, and
 * its response shape where ours differs. Names and parameters: its engine definitions as its own
 * n8n node and Ruby client publish them, and its recorded replies (../shared/fixtures/searchapi).
 */

const same: ParamRule = {};
const unsupported = (reason: string, neutral?: readonly string[]): ParamRule => ({ unsupported: reason, ...(neutral ? { neutral } : {}) });

const FLIGHT_FILTERS_NOT_APPLIED = 'this flight filter is not applied by our flight search; send the search without it';
const flightFilters: Record<string, ParamRule> = Object.fromEntries(
  [
    'max_price', 'emissions', 'included_airlines', 'excluded_airlines', 'included_connecting_airports', 'excluded_connecting_airports',
    'outbound_times', 'return_times', 'layover_duration_min', 'layover_duration_max', 'max_flight_duration', 'carry_on_bags', 'checked_bags',
    'separate_tickets', 'show_hidden_flights',
  ].map((p) => [p, unsupported(FLIGHT_FILTERS_NOT_APPLIED)]),
);
const flightSearch: Record<string, ParamRule> = Object.fromEntries(
  ['departure_id', 'arrival_id', 'outbound_date', 'return_date', 'flight_type', 'travel_class', 'stops', 'adults', 'children', 'infants_in_seat', 'infants_on_lap', 'currency', 'hl', 'gl'].map((p) => [p, same]),
);
const FLIGHT_ECHO = ['departure_id', 'arrival_id', 'currency', 'hl', 'gl', 'outbound_date', 'return_date', 'flight_type', 'travel_class', 'stops', 'adults', 'children', 'infants_in_seat', 'infants_on_lap'];
/** What a departure or booking token fixes: the search it came from. */
const TOKEN_CARRIES = ['departure_id', 'arrival_id', 'outbound_date', 'return_date', 'flight_type', 'multi_city_json', 'travel_class', 'stops', 'adults', 'children', 'infants_in_seat', 'infants_on_lap'];

const HOTEL_FILTERS_NOT_APPLIED = 'this hotel filter is not applied by our hotel search';
const hotelFilters: Record<string, ParamRule> = Object.fromEntries(
  ['free_cancellation', 'special_offers', 'eco_certified', 'for_displaced_individuals', 'brands', 'property_types', 'bedrooms', 'bathrooms'].map((p) => [p, unsupported(HOTEL_FILTERS_NOT_APPLIED)]),
);

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
      free_cancellation: unsupported(HOTEL_FILTERS_NOT_APPLIED),
      expanded_search: unsupported('vacation rentals are priced as the property page lists them'),
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
      sort_by: unsupported('results come in the engine’s own order (top flights first)', ['top_flights']),
      show_cheapest_flights: unsupported('results come in the engine’s own order (top flights first)'),
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
    params: { q: same, hl: same, gl: same, search_type: unsupported('suggestions are those of the departure box', ['departure']) },
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
    params: { ...airbnbCommon, property_id: same, start_month: same, start_year: same, months: same, price_nights: same, max_price_quotes: same, stay_nights: same },
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
  },
  { name: 'youtube_video', tool: getVideo, params: { video_id: same, hl: same, gl: same } },
  {
    name: 'youtube_transcripts',
    tool: getVideoTranscript,
    params: {
      video_id: same,
      lang: same,
      transcript_type: unsupported('creator captions are preferred over auto-generated ones', ['manual']),
      transcript_name: unsupported('tracks are chosen by lang'),
      only_available: unsupported('a missing lang answers 404 listing the available tracks'),
    },
  },
  { name: 'youtube_channel', tool: getVideoChannel, params: { channel_id: { to: 'channel' }, hl: same, gl: same } },
  { name: 'youtube_channel_videos', tool: getVideoChannel, params: { channel_id: { to: 'channel' }, next_page_token: { to: 'page_token' }, hl: same, gl: same } },
  {
    name: 'apple_app_store',
    tool: searchApps,
    params: {
      term: same,
      store: { to: 'country', doc: 'storefront country, e.g. us' },
      country: same,
      num: { to: 'limit' },
      category_id: unsupported('apps are searched by term'),
      sort_by: unsupported('apps come in the store’s own order'),
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
      location: unsupported('put the place in q'),
      uule: unsupported('put the place in q'),
      google_domain: { noEffect: 'the search engine’s main domain is used' },
      next_page_token: unsupported('one page of job cards is answered'),
    },
  },
];

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

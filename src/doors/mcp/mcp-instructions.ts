/**
 * The server's `instructions` (initialize and server/discover): what a model needs before its
 * first call and no single tool description says — how the tools chain, which real site each
 * alias is, what costs what and what is free. Each tool's own description and `_meta` say the rest.
 */
import { aliasGlossary } from '../../domain/source-names.js';

export const MCP_INSTRUCTIONS = [
  'Live hotel, flight and vacation-rental prices, each with its source. Chains:',
  '- Hotels: resolve_hotel (a name and city) or search_hotels (a destination and dates) gives a property_token; then get_hotel_calendar (nightly prices over up to 330 dates), get_hotel_offers (every seller for one stay), get_hotel_rooms, get_stay_price, get_hotel_details (its link is the hotel website for get_official_rate). compare_hotel_prices prices one stay on the official site and the OTAs you name and says who undercuts whom.',
  '- Flights: search_flight_locations (airport codes) → search_flights → get_return_flights (departure_token, round trips) → get_booking_options (booking_token): each option has a booking_link a person can open. get_flight_calendar gives the cheapest dates first.',
  '- Rentals: search_rentals (Airbnb) gives listing ids for get_rental_calendar; get_rental_quote quotes a Vrbo listing from its URL.',
  `Aliases are the real sites: ${aliasGlossary(['metasearch', 'otaone', 'otatwo', 'otathree', 'otafour', 'rentalone', 'rentaltwo'])}; official = the hotel's own site.`,
  "Costs: each tool's description opens with its cost (also in its _meta, hotelrates/cost); empty and failed results are free, and a repeat of the same call while its answer is fresh is answered from the cache for free. get_credit_balance is free.",
  'Defaults: prices in USD for the US market unless currency/gl/market say otherwise; get_hotel_calendar covers 90 nights from tomorrow unless days/start say otherwise; dates are YYYY-MM-DD and a date in the past is refused.',
].join('\n');

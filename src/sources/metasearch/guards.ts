import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of metasearch and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: {
    hotel_search: { items: 'properties', states: ['name', 'property_token', priceFact('rate')] },
    flight_results: { items: ['best_flights', 'other_flights'], states: ['flights', priceFact('price')] },
  },
} satisfies SourceGuards;

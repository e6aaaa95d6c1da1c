import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of hostel and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: {
    city_properties: { items: 'properties', states: ['property_id', 'name', priceFact('lowest_price_per_night|lowest_average_price_per_night', true)] },
  },
} satisfies SourceGuards;

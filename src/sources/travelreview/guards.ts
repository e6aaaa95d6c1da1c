import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of travelreview and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { search: { items: '', states: ['accommodation_id', 'name', priceFact('price_per_night|price_per_stay')] } },
} satisfies SourceGuards;

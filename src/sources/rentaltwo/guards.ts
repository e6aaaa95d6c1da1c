import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of rentaltwo and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { stays_search: { items: 'properties', states: ['id', 'title', priceFact('price', true)] } },
} satisfies SourceGuards;

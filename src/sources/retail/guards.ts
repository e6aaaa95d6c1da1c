import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of retail and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { search: { items: '', states: ['item_id', 'title', priceFact('price')] } },
} satisfies SourceGuards;

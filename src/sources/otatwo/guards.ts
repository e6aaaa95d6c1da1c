import type { SourceGuards } from '../manifest.js';

/** The walls in front of otatwo and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  // Akamai Bot Manager answers plain clients 429 until the sensor set `_abck` (the travel group's sites; design notes, "Expedia/Vrbo")
  walls: ['akamai'],
  drift: { rooms: { items: 'rooms.rate_plans', states: ['price'] } },
} satisfies SourceGuards;

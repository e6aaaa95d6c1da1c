import type { SourceGuards } from '../manifest.js';

/** The walls in front of otafour and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { rooms: { items: 'rooms.offers', states: ['price|total'] } },
} satisfies SourceGuards;

import type { SourceGuards } from '../manifest.js';

/** The walls in front of rentalone and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  // Akamai Bot Manager, as on the travel group's other sites (otatwo)
  walls: ['akamai'],
  drift: { quote: { items: 'offers', states: ['total|nightly'] } },
} satisfies SourceGuards;

import type { SourceGuards } from '../manifest.js';

/** The walls in front of trends and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { timeline: { items: 'points', states: ['date', 'value'], raw: { pattern: '"formattedTime"' } } },
} satisfies SourceGuards;

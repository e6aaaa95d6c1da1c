import type { SourceGuards } from '../manifest.js';

/** The walls in front of apps and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { search: { items: 'apps', states: ['app_id', 'title'] } },
} satisfies SourceGuards;

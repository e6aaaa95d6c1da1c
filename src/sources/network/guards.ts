import type { SourceGuards } from '../manifest.js';

/** The walls in front of network and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: { job_search: { items: '', states: ['job_id', 'title'], raw: { pattern: '<li>' } } },
} satisfies SourceGuards;

import { CHECK_HOTEL, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';
import { otafourCompare } from './compare.js';

export const otafourSource = upstreamSource('otafour', {
  guards,
  check: () => ({ operation: 'search_otafour', input: { query: CHECK_HOTEL, limit: 1 }, checked: `property search "${CHECK_HOTEL}"` }),
  compare: otafourCompare,
});

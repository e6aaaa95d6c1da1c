import { CHECK_HOTEL, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';
import { otathreeCompare } from './compare.js';

export const otathreeSource = upstreamSource('otathree', {
  guards,
  check: () => ({ operation: 'search_otathree', input: { query: CHECK_HOTEL, market: 'US', limit: 1 }, checked: `property search "${CHECK_HOTEL}" (US)` }),
  compare: otathreeCompare,
});

import { CHECK_HOTEL, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';
import { otatwoCompare } from './compare.js';

export const otatwoSource = upstreamSource('otatwo', {
  guards,
  check: () => ({ operation: 'search_otatwo', input: { query: CHECK_HOTEL, market: 'US', limit: 1 }, checked: `property search "${CHECK_HOTEL}" (US)` }),
  compare: otatwoCompare,
});

import { CHECK_HOTEL, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';
import { otaoneCompare } from './compare.js';

export const otaoneSource = upstreamSource('otaone', {
  guards,
  check: () => ({ operation: 'search_otaone', input: { query: CHECK_HOTEL, limit: 1 }, checked: `search "${CHECK_HOTEL}"` }),
  compare: otaoneCompare,
});

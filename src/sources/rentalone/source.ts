import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';
import { rentaloneCompare } from './compare.js';

export const rentaloneSource = upstreamSource('rentalone', {
  guards,
  check: () => ({ operation: 'search_rentalone', input: { query: 'Lake Tahoe', limit: 1 }, checked: 'place search "Lake Tahoe"' }),
  compare: rentaloneCompare,
});

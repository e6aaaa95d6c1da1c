import { upstreamSource } from '../manifest.js';
import { rentaloneCompare } from './compare.js';

export const rentaloneSource = upstreamSource('rentalone', {
  check: () => ({ operation: 'search_rentalone', input: { query: 'Lake Tahoe', limit: 1 }, checked: 'place search "Lake Tahoe"' }),
  compare: rentaloneCompare,
});

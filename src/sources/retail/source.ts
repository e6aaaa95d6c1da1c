import { upstreamSource } from '../manifest.js';

export const retailSource = upstreamSource('retail', {
  check: () => ({ operation: 'search_retail', input: { q: 'laptop' }, checked: 'product search "laptop"' }),
});

import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const retailSource = upstreamSource('retail', {
  guards,
  check: () => ({ operation: 'search_retail', input: { q: 'laptop' }, checked: 'product search "laptop"' }),
});

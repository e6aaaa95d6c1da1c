import { upstreamSource } from '../manifest.js';

export const metasearchSource = upstreamSource('metasearch', {
  check: () => ({
    operation: 'resolve_hotel',
    input: { name: 'The Plaza', city: 'New York', limit: 1, verify: false },
    checked: 'resolve "The Plaza", New York',
  }),
});

import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const metasearchSource = upstreamSource('metasearch', {
  guards,
  check: () => ({
    operation: 'resolve_hotel',
    input: { name: 'The Plaza', city: 'New York', limit: 1, verify: false },
    checked: 'resolve "The Plaza", New York',
  }),
});

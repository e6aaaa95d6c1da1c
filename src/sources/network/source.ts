import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const networkSource = upstreamSource('network', {
  guards,
  check: () => ({
    operation: 'search_network_jobs',
    input: { keywords: 'software engineer', location: 'United States' },
    checked: 'jobs "software engineer", United States',
  }),
});

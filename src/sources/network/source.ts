import { upstreamSource } from '../manifest.js';

export const networkSource = upstreamSource('network', {
  check: () => ({
    operation: 'search_network_jobs',
    input: { keywords: 'software engineer', location: 'United States' },
    checked: 'jobs "software engineer", United States',
  }),
});

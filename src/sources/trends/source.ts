import { upstreamSource } from '../manifest.js';

export const trendsSource = upstreamSource('trends', {
  check: () => ({ operation: 'get_trends_interest', input: { keyword: 'coffee', geo: 'US' }, checked: 'interest in "coffee", US, last month' }),
});

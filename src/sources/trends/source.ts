import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const trendsSource = upstreamSource('trends', {
  guards,
  check: () => ({ operation: 'get_trends_interest', input: { keyword: 'coffee', geo: 'US' }, checked: 'interest in "coffee", US, last month' }),
});

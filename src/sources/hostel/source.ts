import { checkDay, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const hostelSource = upstreamSource('hostel', {
  guards,
  check: (now) => {
    const checkIn = checkDay(now, 30);
    return {
      operation: 'search_hostels',
      input: { query: 'Amsterdam', check_in: checkIn, nights: 1, limit: 1 },
      checked: `hostels in Amsterdam on ${checkIn}, 1 night`,
    };
  },
});

import { checkDay, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const rentaltwoSource = upstreamSource('rentaltwo', {
  guards,
  check: (now) => {
    const checkIn = checkDay(now, 30);
    return {
      operation: 'search_rentals',
      input: { q: 'Paris', check_in_date: checkIn, check_out_date: checkDay(now, 32) },
      checked: `rentals in Paris from ${checkIn}, 2 nights`,
    };
  },
});

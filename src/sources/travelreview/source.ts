import { CHECK_HOTEL, checkDay, upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const travelreviewSource = upstreamSource('travelreview', {
  guards,
  check: (now) => {
    const checkIn = checkDay(now, 30);
    return {
      operation: 'search_travelreview',
      input: { query: CHECK_HOTEL, check_in: checkIn, nights: 1, limit: 1 },
      checked: `"${CHECK_HOTEL}" on ${checkIn}, 1 night`,
    };
  },
});

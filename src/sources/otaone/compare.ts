import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { countryLower } from '../../domain/codes.js';
import { ApiError } from '../../domain/errors.js';
import { compareEntry } from '../manifest.js';
import { BY_NAME, lowest, stayOf, unpriced } from '../compare/offer.js';
import { fetchOtaoneRooms, fetchOtaoneSearch } from './fetch.js';

/** The first OTA in a comparison: the cheapest rate plan of its rooms, the hotel found by its page name or its own search. */
export const otaoneCompare = compareEntry(
  z
    .strictObject({
      pagename: z.string().min(2).max(200).nullable().optional().describe(`page name from the Booking.com hotel URL (/hotel/gb/<pagename>.html); ${BY_NAME}`),
      country: countryLower.default('us').describe('country segment of that URL'),
    })
    .optional()
    .describe(`otaone: ${SOURCE_NAMES.otaone}`),
  (s) => s.pagename,
  (given, input) => async (deps, match) => {
    const stay = stayOf(input);
    let ref = { pagename: given.pagename ?? '', country: given.country };
    if (!given.pagename) {
      if (!input.hotel) throw new ApiError(422, 'otaone: give its pagename or the hotel name');
      const found = await fetchOtaoneSearch(deps, {
        query: input.hotel,
        nights: 1,
        adults: stay.adults,
        rooms: 1,
        currency: input.currency ?? 'USD',
        limit: 1,
      });
      const hit = found.results[0];
      if (!hit) throw new ApiError(404, `otaone: no property matches ${JSON.stringify(input.hotel.slice(0, 100))}`);
      match({ name: hit.name, id: `${hit.country}/${hit.pagename}` });
      ref = { pagename: hit.pagename, country: hit.country };
    }
    const r = await fetchOtaoneRooms(deps, { ...ref, ...stay, rooms: 1, currency: input.currency ?? 'USD' });
    const plans = r.rooms.flatMap((room) => room.rate_plans.map((p) => ({ room: room.name, p })));
    const o = lowest(plans, (x) => x.p.price);
    return o
      ? {
          available: true,
          total: o.p.price,
          price_per_night: null,
          currency: o.p.currency || null,
          taxes_and_fees_included: null,
          rooms: null,
          description: o.room,
          provenance: o.p.provenance,
        }
      : unpriced(r.unavailable_reason ?? 'nothing priced');
  },
);

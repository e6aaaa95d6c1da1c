import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { compareEntry } from '../manifest.js';
import { BY_NAME, lookUp, POINT_OF_SALE, stayOf, unpriced } from '../compare/offer.js';
import { OTATWO_MARKETS } from '../shared/group-graphql.js';
import { searchGroupTypeahead } from '../shared/group-search.js';
import { stayWindow } from '../shared/stay.js';
import { digits } from '../shared/tool-fields.js';
import { fetchOtatwoGrid, otatwoHeadline } from './fetch.js';

/** The second OTA in a comparison: its headline (cheapest) offer for the stay. */
export const otatwoCompare = compareEntry(
  z
    .strictObject({ property_id: digits().nullable().optional().describe(BY_NAME), market: z.enum(OTATWO_MARKETS).default('US').describe(POINT_OF_SALE) })
    .optional()
    .describe(`otatwo: ${SOURCE_NAMES.otatwo}`),
  (s) => s.property_id,
  (given, input) => async (deps, match) => {
    const stay = stayOf(input);
    const { market } = given;
    const search = (hotel: string) => searchGroupTypeahead(deps, 'otatwo', market, hotel, 1);
    const ref = { market, property_id: given.property_id || (await lookUp('otatwo', input.hotel, search, match)) };
    const f = await fetchOtatwoGrid(deps, { ...ref, check_in: stay.check_in, nights: stayWindow(stay, 28).nights, adults: stay.adults });
    const r = otatwoHeadline(f);
    const c = r.cheapest;
    return c
      ? {
          available: true,
          total: c.total,
          price_per_night: c.nightly,
          currency: c.currency || null,
          taxes_and_fees_included: c.taxes_and_fees_included,
          rooms: f.parsed.room_count,
          description: c.room_name,
          provenance: c.provenance,
        }
      : unpriced(r.sold_out ? 'sold out' : 'nothing priced');
  },
);

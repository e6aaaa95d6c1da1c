import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { compareEntry } from '../manifest.js';
import { BY_NAME, lookUp, lowest, POINT_OF_SALE, stayOf, statedTotal } from '../compare/offer.js';
import { searchGroupTypeahead } from '../shared/group-search.js';
import { digits } from '../shared/tool-fields.js';
import { readOtathreeStay } from './fetch.js';

/** The third OTA in a comparison: the cheapest offer of its rooms, else the stay total its headline states. */
export const otathreeCompare = compareEntry(
  z
    .strictObject({ property_id: digits().nullable().optional().describe(BY_NAME), market: z.enum(['US', 'CA']).default('US').describe(POINT_OF_SALE) })
    .optional()
    .describe(`otathree: ${SOURCE_NAMES.otathree}`),
  (s) => s.property_id,
  (given, input) => async (deps, match) => {
    const { market } = given;
    const search = (hotel: string) => searchGroupTypeahead(deps, 'otathree', market, hotel, 1);
    const ref = { market, property_id: given.property_id || (await lookUp('otathree', input.hotel, search, match)) };
    const { stay: r, roomCount } = await readOtathreeStay(deps, { ...ref, ...stayOf(input), rooms: true });
    const o = lowest(
      r.rooms.flatMap((room) => room.offers.map((offer) => ({ room: room.name, offer }))),
      (x) => x.offer.total,
    );
    if (o) {
      const f = o.offer;
      return {
        available: true,
        total: f.total,
        price_per_night: f.nightly,
        currency: f.currency || null,
        taxes_and_fees_included: f.taxes_and_fees_included,
        rooms: roomCount,
        description: o.room,
        provenance: f.provenance,
      };
    }
    return { ...statedTotal(r.property, 'headline'), rooms: roomCount };
  },
);

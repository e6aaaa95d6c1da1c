import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { compareEntry } from '../manifest.js';
import { BY_NAME, lookUp, stayOf, statedTotal } from '../compare/offer.js';
import { searchGroupTypeahead } from '../shared/group-search.js';
import { digits } from '../shared/tool-fields.js';
import { fetchRentaloneQuote } from './fetch.js';
import { checkListingPlatform } from './listing-url.js';

/** The rental platform in a comparison: the stay total its quote states. */
export const rentaloneCompare = compareEntry(
  z
    .strictObject({
      property_id: digits().nullable().optional().describe(BY_NAME),
      listing_id: z
        .string()
        .regex(/^\d+(ha)?$/)
        .max(30)
        .nullable()
        .optional()
        .describe('number in the listing URL, e.g. 321456ha'),
    })
    .superRefine(checkListingPlatform)
    .optional()
    .describe(`rentalone: ${SOURCE_NAMES.rentalone}`),
  (s) => s.property_id ?? s.listing_id,
  (given, input) => async (deps, match) => {
    const search = (hotel: string) => searchGroupTypeahead(deps, 'rentalone', 'US', hotel, 1);
    const ref = given.property_id || given.listing_id ? given : { property_id: await lookUp('rentalone', input.hotel, search, match) };
    const r = await fetchRentaloneQuote(deps, { ...ref, ...stayOf(input), market: 'US' });
    return statedTotal(r.property, 'stay quote');
  },
);

import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { compareEntry } from '../manifest.js';
import { BY_NAME, lookUp, stayOf, unpriced } from '../compare/offer.js';
import { digits } from '../shared/tool-fields.js';
import { OTAFOUR_CURRENCIES, fetchOtafour, searchOtafour } from './fetch.js';

/** The fourth OTA in a comparison: its cheapest room per night (it states no stay total). */
export const otafourCompare = compareEntry(
  z
    .strictObject({ property_id: digits().nullable().optional().describe(BY_NAME) })
    .optional()
    .describe(`otafour: ${SOURCE_NAMES.otafour}`),
  (s) => s.property_id,
  (given, input) => {
    const currency = (OTAFOUR_CURRENCIES as readonly string[]).includes(input.currency ?? '') ? (input.currency as (typeof OTAFOUR_CURRENCIES)[number]) : 'USD';
    return async (deps, match) => {
      const search = (hotel: string) => searchOtafour(deps, hotel, 1);
      const ref = { property_id: given.property_id || (await lookUp('otafour', input.hotel, search, match)) };
      const r = await fetchOtafour(deps, { ...ref, ...stayOf(input), rooms: 1, currency });
      const p = r.property;
      return p.price_per_night != null
        ? {
            available: true,
            total: null,
            price_per_night: p.price_per_night,
            currency: p.currency,
            taxes_and_fees_included: p.tax_inclusive,
            rooms: null,
            description: 'cheapest room, per night',
            provenance: p.provenance,
          }
        : unpriced(p.sold_out ? 'sold out' : 'nothing priced');
    };
  },
);

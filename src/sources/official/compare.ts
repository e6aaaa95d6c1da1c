import { z } from 'zod';
import { SOURCE_NAMES } from '../../domain/source-names.js';
import { CURRENCIES } from '../../domain/codes.js';
import { compareEntry } from '../manifest.js';
import { lowest, stayOf, unpriced } from '../compare/offer.js';
import { fetchOfficialRate } from './fetch.js';

/** The hotel's own site in a comparison: the cheapest offer its booking engine quotes. */
export const officialCompare = compareEntry(
  z
    .strictObject({
      website: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .describe("the hotel's own website"),
      currency: z.enum(CURRENCIES).nullable().optional().describe("parity: your site's currency"),
      taxes_included: z.boolean().nullable().optional().describe('parity: its totals include tax'),
    })
    .optional()
    .describe(`official: ${SOURCE_NAMES.official}`),
  null,
  (site, input) => async (deps) => {
    const r = await fetchOfficialRate(deps, { website: site.website, ...stayOf(input), currency: input.currency });
    const o = lowest(r.offers, (x) => x.total);
    return o
      ? {
          available: true,
          total: o.total,
          price_per_night: null,
          currency: o.currency,
          taxes_and_fees_included: o.taxes_and_fees_included,
          // the engine is asked for one room (fetchOfficialRate's default): its quote is for one
          rooms: 1,
          description: `${r.engine.name}: ${[o.room_name, o.rate_name].filter(Boolean).join(', ') || `room ${o.room_id}`}`,
          provenance: o.provenance,
        }
      : r.offers.length
        ? { ...unpriced(`${r.engine.name}: no stay total`), available: true }
        : unpriced(`${r.engine.name}: nothing available`);
  },
);

import { z } from 'zod';
import { CURRENCIES, countryLower } from '../src/domain/codes.js';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { compareStay } from '../src/sources/shared/compare.js';
import { OTATWO_MARKETS } from '../src/sources/shared/group-graphql.js';
import { ParitySchema } from '../src/domain/parity.js';
import { digits, nullableProvenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { aliasGlossary, SOURCE_NAMES } from '../src/domain/source-names.js';
import { SUMMARIES } from './views/summaries.js';

const Offer = z.object({
  available: z.boolean(),
  total: z.number().nullable(),
  price_per_night: z.number().nullable(),
  currency: z.string().nullable(),
  taxes_and_fees_included: z.boolean().nullable(),
  description: z.string(),
  provenance: nullableProvenance,
});

/** Sources named without their id, which `hotel` (a name) stands in for. */
const idOf = {
  otaone: (s: { pagename?: string | null }) => s.pagename,
  otatwo: (s: { property_id?: string | null }) => s.property_id,
  otathree: (s: { property_id?: string | null }) => s.property_id,
  otafour: (s: { property_id?: string | null }) => s.property_id,
  rentalone: (s: { property_id?: string | null; listing_id?: string | null }) => s.property_id ?? s.listing_id,
} as const;

const byName = 'omit to look it up by hotel';
const pos = 'point of sale (currency follows)';

export const compareHotelPrices = defineTool({
  name: 'compare_hotel_prices',
  title: 'Compare one stay across the official site and OTAs',
  description: `One stay priced on the hotel's own site and the OTAs you list (${aliasGlossary(['otaone', 'otatwo', 'otathree', 'otafour', 'rentalone'])}), each at its cheapest offer with provenance; cheapest total and parity (is an OTA under the official site, by how much) marked. "Is Booking undercutting the hotel's site?": sources {official: {website}, otaone: {}} with hotel. Give a source as {} plus hotel (name, city) for the OTA's own search to find it (sources[].matched), or its id. website: the hotel's site (the link of get_hotel_details). A failing source (past timeout_s: 504) is reported; others still return.`,
  method: 'POST',
  path: '/v1/ota/compare',
  tags: ['hotels'],
  input: z
    .strictObject({
      ...stayFields(28, 8),
      currency: z.enum(CURRENCIES).nullable().optional().describe("ISO 4217; default each source's own"),
      timeout_s: z.number().min(1).max(120).default(45).describe('seconds each source may take'),
      hotel: z.string().trim().min(2).max(200).nullable().optional().describe('hotel name and city, looked up on each OTA listed without its id'),
      sources: z
        .strictObject({
          official: z
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
          otaone: z
            .strictObject({
              pagename: z
                .string()
                .min(2)
                .max(200)
                .nullable()
                .optional()
                .describe(`page name from the Booking.com hotel URL (/hotel/gb/<pagename>.html); ${byName}`),
              country: countryLower.default('us').describe('country segment of that URL'),
            })
            .optional()
            .describe(`otaone: ${SOURCE_NAMES.otaone}`),
          otatwo: z
            .strictObject({ property_id: digits().nullable().optional().describe(byName), market: z.enum(OTATWO_MARKETS).default('US').describe(pos) })
            .optional()
            .describe(`otatwo: ${SOURCE_NAMES.otatwo}`),
          otathree: z
            .strictObject({ property_id: digits().nullable().optional().describe(byName), market: z.enum(['US', 'CA']).default('US').describe(pos) })
            .optional()
            .describe(`otathree: ${SOURCE_NAMES.otathree}`),
          otafour: z
            .strictObject({ property_id: digits().nullable().optional().describe(byName) })
            .optional()
            .describe(`otafour: ${SOURCE_NAMES.otafour}`),
          rentalone: z
            .strictObject({
              property_id: digits().nullable().optional().describe(byName),
              listing_id: z
                .string()
                .regex(/^\d+(ha)?$/)
                .max(30)
                .nullable()
                .optional()
                .describe('number in the listing URL, e.g. 321456ha'),
            })
            .optional()
            .describe(`rentalone: ${SOURCE_NAMES.rentalone}`),
        })
        .describe(
          `the sources to price, at least one: ${aliasGlossary(['otaone', 'otatwo', 'otathree', 'otafour', 'rentalone'])}, official = the hotel's own site`,
        ),
      ...CACHE_FIELD,
    })
    .refine((v) => Object.values(v.sources).some(Boolean), { message: 'name at least one source', path: ['sources'] })
    .superRefine((v, ctx) => {
      if (v.hotel) return;
      for (const [source, id] of Object.entries(idOf)) {
        const given = v.sources[source as keyof typeof idOf];
        if (given && !id(given)) ctx.addIssue({ code: 'custom', path: ['sources', source], message: `give its id or the hotel name in hotel` });
      }
    }),
  output: z.object({
    check_in: z.string(),
    check_out: z.string(),
    nights: z.int(),
    adults: z.int(),
    requested_currency: z.string().nullable(),
    comparison_currency: z.string().nullable(),
    cheapest: z.object({ source: z.string(), total: z.number(), currency: z.string() }).nullable(),
    offers: z.array(
      z.object({
        source: z.string(),
        total: z.number().nullable(),
        price_per_night: z.number().nullable(),
        currency: z.string().nullable(),
        taxes_and_fees_included: z.boolean().nullable(),
        description: z.string(),
        comparable: z.boolean(),
        cheapest: z.boolean(),
        provenance: nullableProvenance,
      }),
    ),
    sources: z.array(
      z.object({
        source: z.string(),
        status: z.enum(['ok', 'error']),
        elapsed_s: z.number(),
        error: z.object({ status: z.int(), detail: z.string() }).nullable(),
        offer: Offer.nullable(),
        matched: z.object({ name: z.string(), id: z.string() }).nullable(),
      }),
    ),
    parity: ParitySchema.describe(
      'the official site against the agencies on one basis (all-in total, same currency, same stay): official_cheapest, undercut (by which agency and how much) or not_comparable with the reason',
    ),
    sources_ok: z.int(),
    sources_failed: z.int(),
    elapsed_s: z.number(),
  }),
  credits: 20,
  free: 'nothing is priced',
  isEmpty: (o) => o.offers.length === 0,
  cache: 'prices',
  partial: (o) => o.sources_failed > 0,
  // the sources run in parallel, each up to timeout_s
  mcp: {
    expose: true,
    title: 'Compare hotel prices',
    task: { when: (i) => i.timeout_s > 10, seconds: (i) => i.timeout_s },
    summary: SUMMARIES.compare_hotel_prices,
  },
  handler: (input, { deps }) => compareStay(deps, input),
});

export const COMPARE_TOOLS: Tool[] = [compareHotelPrices];

import { z } from 'zod';
import { CURRENCIES } from '../src/domain/codes.js';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { compareStay } from '../src/sources/compare/compare.js';
import { COMPARED } from '../src/sources/registry.js';
import { ParitySchema } from '../src/domain/parity.js';
import { nullableProvenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { aliasGlossary } from '../src/domain/source-names.js';
import { SUMMARIES } from './views/summaries.js';

const Offer = z.object({
  available: z.boolean(),
  total: z.number().nullable(),
  price_per_night: z.number().nullable(),
  currency: z.string().nullable(),
  taxes_and_fees_included: z.boolean().nullable(),
  rooms: z.int().nullable().describe("rooms the total covers, as the source's reply states; null where it does not say (each source is asked for one room)"),
  description: z.string(),
  provenance: nullableProvenance,
});

const CompareResultSchema = z.object({
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  requested_currency: z.string().nullable(),
  comparison_currency: z.string().nullable(),
  cheapest: z
    .object({ source: z.string(), total: z.number(), currency: z.string() })
    .nullable()
    .describe("the lowest total in comparison_currency; where parity compares (all-in totals), parity's cheapest"),
  offers: z.array(
    z.object({
      source: z.string(),
      total: z.number().nullable(),
      price_per_night: z.number().nullable(),
      currency: z.string().nullable(),
      currency_stated_by: z
        .enum(['source', 'caller'])
        .nullable()
        .describe("who states the currency: the source, or you (sources.official.currency, where the site's booking engine states none)"),
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
});
/** The comparison as REST and an agent get it (its structuredContent), which the parity app renders. */
export type CompareAnswer = z.output<typeof CompareResultSchema>;

/** The sources a comparison prices, each as its own field (a parity range takes the same). */
export const compareSources = z.strictObject(Object.fromEntries(COMPARED.map(([alias, entry]) => [alias, entry.field])));

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
      sources: compareSources.describe(
        `the sources to price, at least one: ${aliasGlossary(['otaone', 'otatwo', 'otathree', 'otafour', 'rentalone'])}, official = the hotel's own site`,
      ),
      ...CACHE_FIELD,
    })
    .refine((v) => Object.values(v.sources).some(Boolean), { message: 'name at least one source', path: ['sources'] })
    .superRefine((v, ctx) => {
      if (v.hotel) return;
      for (const [source, { idOf }] of COMPARED) {
        const given = v.sources[source];
        if (given && idOf && !idOf(given)) ctx.addIssue({ code: 'custom', path: ['sources', source], message: `give its id or the hotel name in hotel` });
      }
    }),
  output: CompareResultSchema,
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
    app: 'hotel-parity',
  },
  handler: (input, { deps }) => compareStay(deps, input),
});

export const COMPARE_TOOLS: Tool[] = [compareHotelPrices];

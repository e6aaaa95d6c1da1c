import { z } from 'zod';
import { CURRENCIES, countryLower } from '../src/domain/codes.js';
import { defineTool, type Tool } from '../src/registry/define-tool.js';
import { compareStay } from '../src/sources/shared/compare.js';
import { OTATWO_MARKETS } from '../src/sources/shared/group-graphql.js';
import { digits, nullableProvenance, stayFields } from '../src/sources/shared/tool-fields.js';

const Offer = z.object({
  available: z.boolean(),
  total: z.number().nullable(),
  price_per_night: z.number().nullable(),
  currency: z.string().nullable(),
  taxes_and_fees_included: z.boolean().nullable(),
  description: z.string(),
  provenance: nullableProvenance,
});

export const compareHotelPrices = defineTool({
  name: 'compare_hotel_prices',
  title: 'Compare one stay across the official site and OTAs',
  description:
    'One stay priced in parallel on the hotel’s official site and on every OTA you identify (otaone page name, otatwo/otathree/otafour property ids, rentalone id), reduced to each source’s cheapest offer with provenance, side by side with the cheapest total marked (within one comparison currency). A source that fails is reported with its status and detail, and one still running after timeout_s (default 45) as 504; the others are still returned. Costs 20 credits; nothing priced anywhere is free. Get the ids from the per-OTA search routes.',
  method: 'POST',
  path: '/v1/ota/compare',
  tags: ['hotels'],
  input: z
    .strictObject({
      ...stayFields(28, 8),
      currency: z.enum(CURRENCIES).nullable().optional(),
      timeout_s: z.number().min(1).max(120).default(45),
      sources: z.strictObject({
        official: z.strictObject({ website: z.url({ protocol: /^https?$/ }).max(2048) }).optional(),
        otaone: z.strictObject({ pagename: z.string().min(2).max(200), country: countryLower.default('us') }).optional(),
        otatwo: z.strictObject({ property_id: digits(), market: z.enum(OTATWO_MARKETS).default('US') }).optional(),
        otathree: z.strictObject({ property_id: digits(), market: z.enum(['US', 'CA']).default('US') }).optional(),
        otafour: z.strictObject({ property_id: digits() }).optional(),
        rentalone: z
          .strictObject({ property_id: digits().nullable().optional(), listing_id: z.string().regex(/^\d+(ha)?$/).max(30).nullable().optional() })
          .optional(),
      }),
    })
    .refine((v) => Object.values(v.sources).some(Boolean), { message: 'name at least one source', path: ['sources'] }),
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
      }),
    ),
    sources_ok: z.int(),
    sources_failed: z.int(),
    elapsed_s: z.number(),
  }),
  credits: 20,
  isEmpty: (o) => o.offers.length === 0,
  mcp: { expose: true, title: 'Compare hotel prices' },
  handler: (input, { deps }) => compareStay(deps, input),
});

export const COMPARE_TOOLS: Tool[] = [compareHotelPrices];

import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { OFFICIAL_ENGINES } from '../src/sources/official/engines.js';
import { currency } from '../src/domain/codes.js';
import { PRICED_ENGINES } from '../src/sources/official/engine-quotes.js';
import { SITEMINDER_QUOTE_CAP } from '../src/sources/official/quote-siteminder.js';
import { fetchOfficialRate } from '../src/sources/official/fetch.js';
import { provenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { SUMMARIES } from './views/summaries.js';

export const OfficialRateOutput = z.object({
  website: z.string(),
  final_url: z.string(),
  engine: z.object({ id: z.string(), name: z.string(), booking_url: z.string().nullable(), hotel_id: z.string().nullable(), confidence: z.number() }),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  adults: z.int(),
  available: z.boolean(),
  /** Rooms (or room rates) the engine answered for the stay, bookable or not. */
  listed: z.int(),
  sold_out: z.boolean(),
  cheapest_total: z.number().nullable(),
  currency: z.string().nullable(),
  offers: z.array(
    z.object({
      room_id: z.string(),
      room_name: z.string().nullable(),
      rate_name: z.string().nullable(),
      rooms_available: z.number().nullable(),
      total: z.number().nullable(),
      nightly: z.array(z.number()).nullable(),
      taxes: z.number().nullable(),
      currency: z.string().nullable(),
      provenance,
    }),
  ),
  collection_id: z.string(),
  observed_at: z.string(),
  wire_bytes: z.int(),
  elapsed_s: z.number(),
});

export const OfficialRateInput = z.strictObject({
  website: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("the hotel's own website, e.g. the link of get_hotel_details"),
  ...stayFields(30, 8),
  currency: currency.nullable().optional(),
  ...CACHE_FIELD,
});

export const officialRate = defineTool({
  name: 'get_official_rate',
  title: 'Official site rate',
  description: `Price of one stay on the hotel's own website: detects its booking engine and quotes the stay from the engine's public availability (engines priced: ${Object.keys(PRICED_ENGINES).join(', ')}; another engine, or none, is a 422 saying which). One offer per bookable room or rate, with its stay total when the engine gives one (siteminder: at most ${SITEMINDER_QUOTE_CAP} rates); engines state no currency. website: e.g. the link of get_hotel_details. Charged also when all is sold out. compare_hotel_prices sets it beside Booking.com, Expedia and the other OTAs.`,
  method: 'POST',
  path: '/v1/official',
  tags: ['hotels'],
  input: OfficialRateInput,
  cache: 'prices',
  output: OfficialRateOutput,
  credits: 4,
  free: 'the engine lists no room',
  isEmpty: (o) => o.listed === 0,
  mcp: { expose: true, title: 'Get the official-site rate', summary: SUMMARIES.get_official_rate },
  handler: (input, { deps }) => fetchOfficialRate(deps, input),
});

export const officialEngines = defineTool({
  name: 'list_official_engines',
  title: 'Hotel booking engines',
  description: 'Booking engines recognised on hotel websites, the hosts that identify them, and whether POST /v1/official can price them. Free.',
  method: 'GET',
  path: '/v1/official/engines',
  tags: ['hotels'],
  input: z.strictObject({}),
  output: z.object({
    engines: z.array(z.object({ id: z.string(), name: z.string(), hosts: z.array(z.string()), priced: z.boolean() })),
    recognised: z.int(),
    priced: z.int(),
  }),
  credits: 0,
  handler() {
    const engines = OFFICIAL_ENGINES.map((e) => ({ id: e.id, name: e.name, hosts: [...e.hosts], priced: e.id in PRICED_ENGINES }));
    return Promise.resolve({ engines, recognised: engines.length, priced: engines.filter((e) => e.priced).length });
  },
});

export const OFFICIAL_TOOLS: Tool[] = [officialRate, officialEngines];

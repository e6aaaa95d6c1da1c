import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { NO_CREDENTIALS } from '../src/config/engine-credentials.js';
import { OFFICIAL_ENGINES } from '../src/sources/official/engines.js';
import { currency } from '../src/domain/codes.js';
import { PRICED_ENGINES, pricedEngine } from '../src/sources/official/engine-quotes.js';
import { fetchOfficialRate } from '../src/sources/official/fetch.js';
import { provenance, stayFields } from '../src/sources/shared/tool-fields.js';
import { SUMMARIES } from './views/summaries.js';

const OfficialRateOutput = z.object({
  website: z.string(),
  final_url: z.string(),
  engine: z.object({
    id: z.string(),
    name: z.string(),
    booking_url: z.string().nullable(),
    booking_host: z.string().nullable(),
    hotel_id: z.string().nullable(),
    chain_id: z.string().nullable().describe('SynXis chain'),
    confidence: z.number(),
    evidence: z.array(z.object({ kind: z.string(), value: z.string() })).describe('what named the engine, strongest first'),
  }),
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
      fees: z.number().nullable(),
      taxes_and_fees_included: z.boolean().nullable(),
      currency: z.string().nullable(),
      refundable: z.boolean().nullable(),
      cancellation_policy: z.string().nullable(),
      discount_remarks: z.array(z.string()),
      booking_url: z.string().nullable(),
      provenance,
    }),
  ),
  collection_id: z.string(),
  observed_at: z.string(),
  wire_bytes: z.int(),
  elapsed_s: z.number(),
});

const OfficialRateInput = z.strictObject({
  website: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("the hotel's website"),
  ...stayFields(30, 8),
  children: z.int().min(0).max(8).default(0).describe('children'),
  rooms: z.int().min(1).max(8).default(1).describe('rooms'),
  currency: currency.nullable().optional(),
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .default('en')
    .describe('ISO 639-1'),
  ...CACHE_FIELD,
});

/** The engines priced with every setting in place, named in the tool's description. */
const ENGINE_IDS = Object.keys(PRICED_ENGINES);
const needsSetting = (id: string) => Boolean(pricedEngine(id)!.unavailable?.(NO_CREDENTIALS));
/** Grouped rather than "x if configured" per engine: each engine priced costs the listing its name only. */
const PRICED = `${ENGINE_IDS.filter((id) => !needsSetting(id)).join(', ')}; if configured: ${ENGINE_IDS.filter(needsSetting).join(', ')}`;

const officialRate = defineTool({
  name: 'get_official_rate',
  title: 'Official site rate',
  description: `Price of one stay on the hotel's own website, from its engine (priced: ${PRICED}; others: 422). One offer per bookable rate, fields as the engine states them, else null. website: the get_hotel_details link. Charged also when sold out. compare_hotel_prices sets it beside Booking.com, Expedia and the other OTAs.`,
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

const officialEngines = defineTool({
  name: 'list_official_engines',
  title: 'Hotel booking engines',
  description:
    'Booking engines recognised on hotel websites, the hosts that identify them, whether POST /v1/official prices them here (priced), and what pricing one needs when a setting is missing (needs). Free.',
  method: 'GET',
  path: '/v1/official/engines',
  tags: ['hotels'],
  input: z.strictObject({}),
  output: z.object({
    engines: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        hosts: z.array(z.string()),
        priced: z.boolean(),
        needs: z.string().nullable().describe('why a priced engine is not priced with these settings (a missing registration); null otherwise'),
      }),
    ),
    recognised: z.int(),
    priced: z.int(),
  }),
  credits: 0,
  handler(_input, { deps }) {
    const settings = deps.config.officialCredentials;
    const engines = OFFICIAL_ENGINES.map((e) => {
      const needs = pricedEngine(e.id)?.unavailable?.(settings) ?? null;
      return { id: e.id, name: e.name, hosts: [...e.hosts], priced: pricedEngine(e.id) != null && needs == null, needs };
    });
    return Promise.resolve({ engines, recognised: engines.length, priced: engines.filter((e) => e.priced).length });
  },
});

export const OFFICIAL_TOOLS: Tool[] = [officialRate, officialEngines];

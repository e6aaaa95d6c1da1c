import { z } from 'zod';
import { CURRENCIES } from '../src/domain/codes.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { searchOtafour } from '../src/sources/otafour/fetch.js';
import { fetchOtaoneSearch } from '../src/sources/otaone/fetch.js';
import { OTATWO_MARKETS } from '../src/sources/shared/group-graphql.js';
import { searchGroupTypeahead } from '../src/sources/shared/group-search.js';
import { adultsField, futureDate, nightsField, nullableProvenance } from '../src/sources/shared/tool-fields.js';

/** The per-OTA property searches (name → the id the stay routes need), 1 credit each. */

const stamp = { collection_id: z.string(), observed_at: z.string() };

export const otaoneSearch = defineTool({
  name: 'search_otaone',
  title: 'First OTA: find a property page name',
  description:
    'Searches the first OTA for a hotel name or destination and returns result cards with the page name and country that POST /v1/ota/otaone/rooms needs; with check_in the cards carry the stay price. Costs 1 credit; no result is free.',
  method: 'POST',
  path: '/v1/ota/otaone/search',
  tags: ['ota'],
  input: z.strictObject({
    query: z.string().min(1).max(200).describe('Property name or place, as typed in the site’s search box.'),
    check_in: futureDate.nullable().optional().describe('First night of a stay to price the results for, YYYY-MM-DD; without it the results carry no prices.'),
    nights: nightsField(30),
    adults: adultsField(8),
    rooms: z.int().min(1).max(8).default(1).describe('Rooms wanted.'),
    currency: z.enum(CURRENCIES).default('USD').describe('Currency of the prices asked for.'),
    limit: z.int().min(1).max(50).default(10).describe('Most results returned.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    query: z.string(),
    check_in: z.string().nullable(),
    check_out: z.string().nullable(),
    ...stamp,
    wire_bytes: z.int(),
    results: z.array(
      z.object({
        position: z.int(),
        name: z.string(),
        pagename: z.string(),
        country: z.string(),
        url: z.string(),
        hotel_id: z.null(),
        address: z.string(),
        distance: z.string(),
        review_score: z.number().nullable(),
        review_word: z.string(),
        review_count: z.number().nullable(),
        star_rating: z.number().nullable(),
        stay_text: z.string(),
        price: z.number().nullable(),
        price_text: z.string(),
        currency: z.string().nullable(),
        taxes_text: z.string(),
        taxes: z.number().nullable(),
        units: z.array(z.object({ name: z.string(), details: z.array(z.string()), free_cancellation: z.boolean(), no_prepayment: z.boolean() })),
        provenance: nullableProvenance,
      }),
    ),
  }),
  credits: 1,
  cache: 'prices',
  isEmpty: (o) => o.results.length === 0,
  handler: (input, { deps }) => fetchOtaoneSearch(deps, input),
});

const SearchHit = z.object({
  position: z.int(),
  property_id: z.string(),
  name: z.string(),
  full_name: z.string(),
  type: z.string(),
  region_id: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
const SearchOut = z.object({ query: z.string(), market: z.string(), results: z.array(SearchHit) });

function groupSearch(alias: 'otatwo' | 'otathree', markets: readonly [string, ...string[]]) {
  return defineTool({
    name: `search_${alias}`,
    title: `${alias === 'otatwo' ? 'Second' : 'Third'} OTA: find a property id`,
    description: `Resolves a hotel name to its numeric property id on the ${alias === 'otatwo' ? 'second' : 'third'} OTA (the site's own suggestions), for POST /v1/ota/${alias}${alias === 'otatwo' ? '/rooms' : ''}. Costs 1 credit; no match is free.`,
    method: 'POST',
    path: `/v1/ota/${alias}/search`,
    tags: ['ota'],
    input: z.strictObject({
      query: z.string().min(1).max(200).describe('Property name or place, as typed in the site’s search box.'),
      market: z
        .enum(markets as [string, ...string[]])
        .default('US')
        .describe('Point of sale: the country site searched.'),
      limit: z.int().min(1).max(10).default(5).describe('Most results returned.'),
      ...CACHE_FIELD,
    }),
    output: SearchOut,
    credits: 1,
    cache: 'details',
    isEmpty: (o) => o.results.length === 0,
    async handler(input, { deps }) {
      const r = await searchGroupTypeahead(deps, alias, input.market, input.query, input.limit);
      return { query: input.query, market: r.market, results: r.results };
    },
  });
}

export const otatwoSearch = groupSearch('otatwo', OTATWO_MARKETS);
export const otathreeSearch = groupSearch('otathree', ['US', 'CA']);

export const otafourSearch = defineTool({
  name: 'search_otafour',
  title: 'Fourth OTA: find a property id',
  description:
    'Resolves a hotel name to the fourth OTA’s numeric property id (the site’s own search-box suggestions; cities and areas are skipped) for POST /v1/ota/otafour. region_id is the site’s city id. Costs 1 credit; no match is free.',
  method: 'POST',
  path: '/v1/ota/otafour/search',
  tags: ['ota'],
  input: z.strictObject({
    query: z.string().min(1).max(200).describe('Property name or place, as typed in the site’s search box.'),
    limit: z.int().min(1).max(10).default(5).describe('Most results returned.'),
    ...CACHE_FIELD,
  }),
  output: SearchOut,
  credits: 1,
  cache: 'details',
  isEmpty: (o) => o.results.length === 0,
  async handler(input, { deps }) {
    const r = await searchOtafour(deps, input.query, input.limit);
    return { query: input.query, market: r.market, results: r.results };
  },
});

export const rentaloneSearch = defineTool({
  name: 'search_rentalone',
  title: 'Vacation rental (first platform): find a property id',
  description:
    'Resolves a rental name or place to the first rental platform’s numeric property id (the site’s own suggestions) for POST /v1/ota/rentalone. Costs 1 credit; no match is free.',
  method: 'POST',
  path: '/v1/ota/rentalone/search',
  tags: ['rentals'],
  input: z.strictObject({
    query: z.string().min(1).max(200).describe('Property name or place, as typed in the site’s search box.'),
    limit: z.int().min(1).max(10).default(5).describe('Most results returned.'),
    ...CACHE_FIELD,
  }),
  output: SearchOut,
  credits: 1,
  cache: 'details',
  isEmpty: (o) => o.results.length === 0,
  async handler(input, { deps }) {
    const r = await searchGroupTypeahead(deps, 'rentalone', 'US', input.query, input.limit);
    return { query: input.query, market: r.market, results: r.results };
  },
});

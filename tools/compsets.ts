import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { wantsCsv } from '../src/core/csv-answer.js';
import { MAX_SELLER_STAYS, readShop, shopCosts, shopCsv, shopSummary, startShop } from '../src/core/compsets/rate-shop.js';
import { currency, isoDate } from '../src/domain/codes.js';
import { InvalidInput } from '../src/domain/errors.js';
import { newId } from '../src/domain/ids.js';
import { PRICING_MARKET_CODES } from '../src/domain/markets.js';
import { GRID_CSV_HEADER } from '../src/domain/rate-shop.js';
import { SELLER_CSV_HEADER } from '../src/domain/shop-sellers.js';
import { expiryBounds } from '../src/jobs/run-expiry.js';
import { jobsProgress } from '../src/jobs/calendar-jobs.js';
import { deleteCompset, findCompset, findShop, insertCompset, listCompsets, listShops, updateCompset, type SetMember } from '../src/platform/compsets.js';
import { CompsetSchema, ShopSchema, ShopSummarySchema, compsetResource, lengthsOfStay, listPage, submission, submissionHeaders } from './compset-schemas.js';

/*
 * Competitor sets and rate shops: REST only (not MCP tools; the MCP tools stay the 18 read-only
 * ones). Every set and shop belongs to the key's account; another account's is a 404 on every route.
 */

/** Competitors a set holds at most. */
const MAX_COMPETITORS = 20;
/** Lengths of stay one shop prices at most. */
const MAX_LENGTHS = 7;

const Member = z.strictObject({
  property_token: z.string().min(8).max(400).describe('the property token (POST /v1/search, POST /v1/hotels/search)'),
  name: z.string().trim().min(1).max(200).describe('your name for the hotel'),
});
const setName = z.string().trim().min(1).max(200).describe('your name for the set');
const competitors = z.array(Member).min(1).max(MAX_COMPETITORS).describe(`the competitors (1-${MAX_COMPETITORS}), each once and not your own hotel`);
const compsetId = z.string().min(1).max(100).describe('the set id returned by POST /v1/compsets');

/** A property appears once in a set: a competitor twice, or your own hotel as a competitor, is refused. */
function checkMembers(own: SetMember, rivals: SetMember[]): void {
  const seen = new Set([own.property_token]);
  const issues = rivals.flatMap((c, i) => {
    if (!seen.has(c.property_token)) {
      seen.add(c.property_token);
      return [];
    }
    const msg = c.property_token === own.property_token ? 'your own hotel is not its own competitor' : 'this property is already in the set';
    return [{ type: 'value_error', loc: ['body', 'competitors', i, 'property_token'], msg, input: c.property_token }];
  });
  if (issues.length) throw new InvalidInput(issues);
}

const createCompsetTool = defineTool({
  name: 'create_compset',
  title: 'Create a competitor set',
  description: `Your hotel and up to ${MAX_COMPETITORS} competitors, by property token with your names for them; rate shops run over it (POST /v1/compsets/{compset_id}/shops). Free.`,
  method: 'POST',
  path: '/v1/compsets',
  tags: ['compsets'],
  status: 201,
  input: z.strictObject({ name: setName, own: Member.describe('your own hotel'), competitors }),
  output: CompsetSchema,
  credits: 0,
  async handler(input, { deps, key }) {
    checkMembers(input.own, input.competitors);
    return compsetResource(await insertCompset(deps.sql, { id: newId('compset'), account_id: key.account_id, ...input }));
  },
});

const listCompsetsTool = defineTool({
  name: 'list_compsets',
  title: 'List competitor sets',
  description: 'Your competitor sets, newest first. Free.',
  method: 'GET',
  path: '/v1/compsets',
  tags: ['compsets'],
  input: z.strictObject(listPage),
  output: z.object({ compsets: z.array(CompsetSchema), limit: z.int(), offset: z.int() }),
  credits: 0,
  async handler({ limit, offset }, { deps, key }) {
    return { compsets: (await listCompsets(deps.sql, key.account_id, limit, offset)).map(compsetResource), limit, offset };
  },
});

const getCompsetTool = defineTool({
  name: 'get_compset',
  title: 'Competitor set',
  description: 'One of your competitor sets. Free.',
  method: 'GET',
  path: '/v1/compsets/{compset_id}',
  tags: ['compsets'],
  input: z.strictObject({ compset_id: compsetId }),
  output: CompsetSchema,
  credits: 0,
  errors: { 404: 'No set of your account has that id.' },
  async handler({ compset_id }, { deps, key }) {
    return compsetResource(await findCompset(deps.sql, key.account_id, compset_id));
  },
});

const updateCompsetTool = defineTool({
  name: 'update_compset',
  title: 'Change a competitor set',
  description: 'Renames the set or replaces its own hotel or its competitors (the whole list). Shops already run keep the set as it was. Free.',
  method: 'PATCH',
  path: '/v1/compsets/{compset_id}',
  tags: ['compsets'],
  input: z.strictObject({
    compset_id: compsetId,
    name: setName.optional(),
    own: Member.optional().describe('your own hotel'),
    competitors: competitors.optional(),
  }),
  output: CompsetSchema,
  credits: 0,
  errors: { 404: 'No set of your account has that id.' },
  async handler({ compset_id, ...change }, { deps, key }) {
    const current = await findCompset(deps.sql, key.account_id, compset_id);
    checkMembers(change.own ?? current.own, change.competitors ?? current.competitors);
    return compsetResource(await updateCompset(deps.sql, key.account_id, compset_id, change));
  },
});

const deleteCompsetTool = defineTool({
  name: 'delete_compset',
  title: 'Delete a competitor set',
  description:
    'Deletes the set and its shops (their calendar batches stay, as GET /v1/jobs/{job_id} shows them, and so do their stored rates and charges). Free.',
  method: 'DELETE',
  path: '/v1/compsets/{compset_id}',
  tags: ['compsets'],
  input: z.strictObject({ compset_id: compsetId }),
  output: z.object({ id: z.string(), deleted: z.literal(true) }),
  credits: 0,
  errors: { 404: 'No set of your account has that id.' },
  async handler({ compset_id }, { deps, key }) {
    await deleteCompset(deps.sql, key.account_id, compset_id);
    return { id: compset_id, deleted: true as const };
  },
});

const createShopTool = defineTool({
  name: 'create_rate_shop',
  title: 'Run a rate shop',
  description: `Prices the set's hotels over a date range at up to ${MAX_LENGTHS} lengths of stay, as a durable batch: one calendar per property and length of stay (POST /v1/calendar's collection, shared result cache), answering 202 with the shop; poll its poll_url for progress and the grid (GET /v1/compsets/{compset_id}/shops/{shop_id}). With sellers: true, each property's sellers for each stay too (one POST /v1/offers per property, date and length of stay, at most ${MAX_SELLER_STAYS} stays). Submission is free; each calendar is charged as POST /v1/calendar (5 credits, nothing when it prices no night) and each stay's offers as POST /v1/offers (3 credits, nothing when no seller offers it); credits_max states the most the shop costs. An optional Idempotency-Key makes a retry return the same shop.`,
  method: 'POST',
  path: '/v1/compsets/{compset_id}/shops',
  tags: ['compsets'],
  status: 202,
  input: z.strictObject({
    compset_id: compsetId,
    start: isoDate.optional().describe('first check-in date (not in the past); default tomorrow'),
    days: z.int().min(1).max(330).default(30).describe('check-in dates from start (1-330)'),
    los: lengthsOfStay(30, MAX_LENGTHS),
    adults: z.int().min(1).max(8).default(2).describe('adult guests'),
    currency: currency.optional(),
    market: z.enum(PRICING_MARKET_CODES).optional().describe('pricing market (sets the country and the default tax basis)'),
    priority: z.int().min(0).max(9).default(5).describe('0-9, higher first, as batches'),
    sellers: z
      .boolean()
      .default(false)
      .describe(
        `also each stay's sellers (the hotel's site, Booking.com, Expedia …) with their cheapest all-in totals: one POST /v1/offers per property, date and length of stay (3 credits each), at most ${MAX_SELLER_STAYS} stays`,
      ),
  }),
  output: ShopSchema,
  credits: 0,
  headers: submissionHeaders('shop'),
  errors: { 404: 'No set of your account has that id.', 409: 'The Idempotency-Key was already used with a different body.' },
  async handler({ compset_id, ...ask }, { deps, key, headers }) {
    const { idem, start } = submission(headers, ask.start);
    const shop = await startShop(
      deps.sql,
      deps.queue.boss(),
      key,
      compset_id,
      { ...ask, start },
      {
        idempotencyKey: idem ?? newId('shopsubmit'),
        expiry: expiryBounds(deps.config),
        costs: shopCosts(deps.tools),
      },
    );
    // read before waking this process's workers: the answer shows the shop as committed (queued)
    const answer = await readShop(deps.sql, key.account_id, shop);
    deps.queue.wake();
    return answer;
  },
});

const getShopTool = defineTool({
  name: 'get_rate_shop',
  title: 'Rate shop grid',
  description:
    'A rate shop: its progress and its grid (per check-in date and length of stay, each property’s stated all-in total with provenance or null and why, your hotel’s rank and its difference to the competitors’ median; in a per-seller shop each seller’s cheapest all-in total with provenance), as far as the batch has come. JSON, or CSV with format=csv or Accept: text/csv. Free.',
  method: 'GET',
  path: '/v1/compsets/{compset_id}/shops/{shop_id}',
  tags: ['compsets'],
  input: z.strictObject({
    compset_id: compsetId,
    shop_id: z.string().min(1).max(100).describe('the shop id returned by POST /v1/compsets/{compset_id}/shops'),
    format: z
      .enum(['json', 'csv'])
      .optional()
      .describe('csv: the grid as CSV, one line per date, length of stay and property (and seller, in a per-seller shop); default: as Accept asks, JSON'),
  }),
  output: ShopSchema,
  csv: `the grid, one line per date, length of stay and property: ${GRID_CSV_HEADER.join(', ')}; a per-seller shop one line per seller of each cell (a cell without sellers one line), the columns then ${SELLER_CSV_HEADER.slice(GRID_CSV_HEADER.length).join(', ')}`,
  credits: 0,
  errors: { 404: 'No shop of your account has that id in that set.' },
  async handler({ compset_id, shop_id, format }, { deps, key, headers }) {
    const shop = await readShop(deps.sql, key.account_id, await findShop(deps.sql, key.account_id, compset_id, shop_id));
    if (!wantsCsv(format, headers)) return shop;
    // sent as these bytes by the REST door (text/csv, a download)
    return shopCsv(shop) as unknown as typeof shop;
  },
});

const listShopsTool = defineTool({
  name: 'list_rate_shops',
  title: 'List rate shops',
  description: 'The set’s rate shops with their progress, newest first. Free.',
  method: 'GET',
  path: '/v1/compsets/{compset_id}/shops',
  tags: ['compsets'],
  input: z.strictObject({ compset_id: compsetId, ...listPage }),
  output: z.object({ shops: z.array(ShopSummarySchema), limit: z.int(), offset: z.int() }),
  credits: 0,
  errors: { 404: 'No set of your account has that id.' },
  async handler({ compset_id, limit, offset }, { deps, key }) {
    await findCompset(deps.sql, key.account_id, compset_id);
    const listed = await listShops(deps.sql, key.account_id, compset_id, limit, offset);
    const progress = await jobsProgress(
      deps.sql,
      key.account_id,
      listed.map((s) => s.job_id),
    );
    return {
      // a shop's job is written in the shop's own transaction: every listed shop has one
      shops: listed.flatMap((s) => {
        const p = progress.get(s.job_id);
        return p ? [shopSummary({ ...s, compset_id }, p)] : [];
      }),
      limit,
      offset,
    };
  },
});

export const COMPSET_TOOLS: Tool[] = [
  createCompsetTool,
  listCompsetsTool,
  getCompsetTool,
  updateCompsetTool,
  deleteCompsetTool,
  createShopTool,
  listShopsTool,
  getShopTool,
];

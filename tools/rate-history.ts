import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { csvAnswer, wantsCsv } from '../src/core/csv-answer.js';
import { storedRatesRequest } from '../src/domain/calendar-request.js';
import { currency, isoDate } from '../src/domain/codes.js';
import { PRICING_MARKET_CODES } from '../src/domain/markets.js';
import { ProvenanceSchema, type Provenance } from '../src/domain/provenance.js';
import { queryInt } from '../src/domain/query-params.js';
import { readRateHistory, type HistoryRow } from '../src/platform/stored-rates.js';

/*
 * The history of a stay's price in the account's stored rates: every change its collections saw
 * (calendar calls, batch items and rate shops, watch checks), each with the observation that saw
 * it. Nothing of another account; nothing the upstream did not state.
 */

const Observation = z.object({
  observed_at: z.string(),
  state: z.enum(['priced', 'unpriced']).describe('unpriced: from then on the stay had no stated price (sold out, or no bookable offer)'),
  rate_total: z.number().nullable().describe('the all-in stay total; null when unpriced'),
  currency: z.string().nullable(),
  seller: z.string().nullable().describe('the seller or source where the collection named one (offers and compare watches); calendars name none'),
  collection_id: z.string(),
  run_id: z.string(),
  provenance: ProvenanceSchema.nullable(),
});
type ObservationOut = z.output<typeof Observation>;

const CSV_HEADER = ['token', 'date', 'los', 'observed_at', 'state', 'rate_total', 'currency', 'seller', 'observation_id', 'collection_id', 'run_id'];

function observation(row: HistoryRow): ObservationOut {
  const rate = row.rate ?? {};
  const named = rate.seller ?? rate.source;
  return {
    observed_at: row.observed_at.toISOString(),
    state: row.rate_total === null ? 'unpriced' : 'priced',
    rate_total: row.rate_total === null ? null : Number(row.rate_total),
    currency: row.rate_total === null ? null : typeof rate.currency === 'string' ? rate.currency : null,
    seller: typeof named === 'string' ? named : null,
    collection_id: row.collection_id,
    run_id: row.run_id,
    provenance: (rate.provenance as Provenance | undefined) ?? null,
  };
}

/** A date alone means the end of that day (UTC). */
const asOfInstant = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v);

const rateHistory = defineTool({
  name: 'get_rate_history',
  title: 'Rate history',
  description:
    "How one stay's price moved in your account's stored rates: each change your calendar calls, batches, rate shops and watch checks saw (a new price, or the stay no longer priced), oldest first, each with its provenance; `latest` is the price as of `as_of` (default now). A property-night is the stay at los 1. Unchanged prices seen again add nothing. JSON, or CSV with format=csv or Accept: text/csv. Free: no upstream request is made.",
  method: 'GET',
  path: '/v1/rates/history',
  tags: ['hotels'],
  input: z.strictObject({
    property_token: z.string().min(1).max(400).describe('the property token (a compare watch stores each source under `<source>:<its property id>`)'),
    date: isoDate.describe('check-in date of the stay, YYYY-MM-DD'),
    los: queryInt.pipe(z.int().min(1).max(30)).default(1).describe('length of stay in nights'),
    market: z.enum(PRICING_MARKET_CODES).default('US').describe('pricing market the rates were collected in'),
    currency: currency.optional().describe('currency of the stored rates; default the market’s'),
    adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('adults the rates were collected for'),
    seller: z.string().min(1).max(100).optional().describe('only this seller’s prices (an offers watch’s seller, a compare watch’s source)'),
    as_of: z
      .union([isoDate, z.iso.datetime({ offset: true })])
      .optional()
      .describe('only what was observed by then (a date: the end of that day, UTC)'),
    format: z.enum(['json', 'csv']).optional().describe('csv: the observations as CSV (default: as Accept asks; JSON)'),
  }),
  output: z.object({
    token: z.string(),
    date: z.string(),
    los: z.int(),
    market: z.string(),
    currency: z.string(),
    adults: z.int(),
    as_of: z.string().nullable(),
    seller: z.string().nullable(),
    total: z.int().describe('observations listed (at most 1000)'),
    latest: Observation.nullable().describe('the last observation as of as_of: the price then, or unpriced; null when none'),
    observations: z.array(Observation),
  }),
  csv: `one line per observation: ${CSV_HEADER.join(', ')}`,
  credits: 0,
  async handler(input, { deps, key, headers }) {
    const { market, currency: cur } = storedRatesRequest({
      token: input.property_token,
      market: input.market,
      currency: input.currency,
      adults: input.adults,
      los: input.los,
    });
    const q = { token: input.property_token, market, currency: cur, adults: input.adults, los: input.los, date: input.date, seller: input.seller };
    const rows = await readRateHistory(deps.sql, key.account_id, { ...q, asOf: input.as_of ? asOfInstant(input.as_of) : undefined });
    const observations = rows.map(observation);
    if (wantsCsv(input.format, headers)) {
      const lines = observations.map((o) => [
        q.token,
        q.date,
        q.los,
        o.observed_at,
        o.state,
        o.rate_total,
        o.currency,
        o.seller,
        o.provenance?.observation_id ?? null,
        o.collection_id,
        o.run_id,
      ]);
      return csvAnswer(`history-${q.date}-${q.los}n.csv`, CSV_HEADER, lines) as never;
    }
    return {
      ...q,
      seller: input.seller ?? null,
      as_of: input.as_of ?? null,
      total: observations.length,
      latest: observations.at(-1) ?? null,
      observations,
    };
  },
});

export const HISTORY_TOOLS: Tool[] = [rateHistory];

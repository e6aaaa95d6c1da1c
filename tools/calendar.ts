import { z } from 'zod';
import {
  calendarCharge,
  calendarCost,
  CalendarRequest,
  calendarRequestShape,
  normalizeCalendarRequest,
  storedRatesRequest,
} from '../src/domain/calendar-request.js';
import { PRICING_MARKET_CODES } from '../src/domain/markets.js';
import { currency, isoDate } from '../src/domain/codes.js';
import { expectedCalendarSeconds } from '../src/jobs/calendar-jobs.js';
import {
  calendarRatesStatement,
  earlierPrices,
  readStoredRates,
  storageStatus as readStorageStatus,
  storeCalendarRates,
} from '../src/platform/stored-rates.js';
import { MIN_OBSERVATIONS, pricePositions } from '../src/domain/price-position.js';
import { resultCacheSize } from '../src/platform/result-cache.js';
import { BadRequest, InvalidInput } from '../src/domain/errors.js';
import { newId } from '../src/domain/ids.js';
import { defineTool, type ToolContext } from '../src/core/define-tool.js';
import { queryBool, queryInt } from '../src/domain/query-params.js';
import { COMPAT_COMMON_FIELDS } from '../src/core/compat/engine.js';
import { echoParameters, SearchMetadataSchema, SearchTimer } from '../src/sources/shared/search-metadata.js';
import { ProvenanceSchema } from '../src/domain/provenance.js';
import { asToken, propertyTokenFields } from '../src/sources/metasearch/hotels/property-token.js';
import { collectCalendar } from '../src/sources/metasearch/calendar/service.js';
import { hotelCalendarSummary, hotelCalendarText, hotelCalendarView } from './views/hotel-calendar.js';

const num = z.number().nullable();
const RateRow = z.looseObject({
  date: z.string(),
  check_in: z.string(),
  check_out: z.string(),
  nights: z.int(),
  currency: z.string().nullable(),
  rate_total: num,
  rate_base: num,
  rate_taxes: num,
  rate_fees: num,
  rate_before_taxes_with_fees: num,
  rate_per_night: num,
  rate_per_person: num.optional(),
  min_length_of_stay: z.int().optional(),
  rate_mainstream_total: num.optional(),
  rate_mainstream_base: num.optional(),
  mainstream_source: z.string().nullable().optional(),
  aggregator_discount: num.optional(),
  mainstream_error: z.string().optional(),
  provenance: ProvenanceSchema,
  position: z
    .object({
      window_percentile: z.int().describe('0-100: the share of the window’s priced nights cheaper than this one (ties count half)'),
      history: z
        .enum(['low', 'typical', 'high'])
        .nullable()
        .describe(
          `against your account's earlier prices of this property-night (under their lower quartile, between, over the upper); null under ${MIN_OBSERVATIONS} of them`,
        ),
      observations: z.int().describe('earlier prices of this property-night your account holds (each change seen counts once)'),
    })
    .nullable()
    .optional()
    .describe('POST /v1/calendar only: where the price sits; null for a night priced at another length of stay (a probed minimum stay)'),
});

const CalendarResultSchema = z.object({
  token: z.string(),
  collection_id: z.string(),
  observed_at: z.string(),
  market: z.string(),
  requested_days: z.int(),
  coverage: z.number(),
  wire_bytes: z.int(),
  elapsed_s: z.number(),
  calendar_elapsed_s: z.number(),
  egress_mode: z.string(),
  tax_profile: z.record(z.string(), z.unknown()).nullable(),
  unpriced_dates: z.array(z.string()),
  validation: z.record(z.string(), z.unknown()),
  booking_window: z.record(z.string(), z.unknown()).optional(),
  basis_applied: z.string().optional(),
  source_check: z.record(z.string(), z.unknown()).optional(),
  rates: z.array(RateRow),
});
type CalendarResultOut = z.infer<typeof CalendarResultSchema>;

const zeroRetention = queryBool
  .default(false)
  .describe('true: nothing of this call is stored (no stored rates, no collection run, no raw page); the answer is the same');

/** POST /v1/calendar: one calendar request, plus zero_retention (batch items are stored by design and do not take it). */
const CalendarCallRequest = z
  .strictObject({ ...calendarRequestShape, ...propertyTokenFields(calendarRequestShape.token), zero_retention: zeroRetention })
  .transform(asToken);

/** Collects, stores in the caller's account (latest rate per night; nothing under zero_retention) and returns one calendar. */
async function collect(input: z.output<typeof CalendarRequest>, ctx: ToolContext, opts: { position?: boolean } = {}): Promise<CalendarResultOut> {
  const { deps, key, requestId } = ctx;
  const request = normalizeCalendarRequest(input);
  const result = await collectCalendar(deps, request);
  // read before this call's own rates are stored: only earlier prices count
  const earlier = opts.position ? await earlierPrices(deps.sql, key.account_id, request) : null;
  // a window sold out night by night or whole alike removes the stored nights it no longer prices
  if ((result.rates.length || result.unpriced_dates.length) && !ctx.zeroRetention) {
    // committed with the call's history row and charge, in the same round trip (one statement itself)
    const ids = { runId: ctx.runId ?? newId('scraperun'), collectionKey: requestId };
    if (ctx.commitWithCall) ctx.commitWithCall((db) => calendarRatesStatement(db, key.account_id, request, result, ids));
    else await storeCalendarRates(deps.sql, key.account_id, request, result, ids);
  }
  if (!earlier) return result as CalendarResultOut;
  const atLos = result.rates.filter((r) => r.nights === request.los);
  const positions = pricePositions(
    atLos.map((r) => ({ date: r.date, total: typeof r.rate_total === 'number' ? r.rate_total : null })),
    earlier,
  );
  return {
    ...result,
    rates: result.rates.map((r) => ({ ...r, position: r.nights === request.los ? (positions.get(r.date) ?? null) : null })),
  } as CalendarResultOut;
}

const calendarCredits = {
  base: 5,
  note: 'plus 3 per night with basis mainstream and 3 per verify_sources spot-check; an empty calendar is free',
  growth: [
    { credits: 3, per: 'night', when: 'basis is mainstream' },
    { credits: 3, per: 'spot-check', when: 'verify_sources > 0' },
  ],
  free: 'no night is priced',
  max: (i: z.output<typeof CalendarRequest>) => calendarCost(normalizeCalendarRequest(i)),
  actual: (i: z.output<typeof CalendarRequest>, o: CalendarResultOut) => calendarCharge(normalizeCalendarRequest(i), o),
};

export const calendar = defineTool({
  name: 'get_hotel_calendar',
  title: 'Hotel price calendar',
  description:
    'Nightly prices of one hotel from Google Hotels for up to 330 check-in dates (days; default 90 from start, which defaults to tomorrow) at one length of stay (los), with base/taxes/fees and provenance; nights that only sell longer are probed (min_length_of_stay). The cheapest basis costs the same for 1 or 330 nights; basis mainstream adds the cheapest of six major OTAs per night (slow, priced per night); verify_sources spot-checks nights against the offers page. Answers a summary (cheapest nights, weekly or monthly min/median/max, unavailable nights); nights "list" adds a line per night. For cheapest nights in a month, set start to its first day and days to its length. Needs a property_token (resolve_hotel, search_hotels).',
  method: 'POST',
  path: '/v1/calendar',
  tags: ['hotels'],
  input: CalendarCallRequest,
  output: CalendarResultSchema,
  credits: calendarCredits,
  mcp: {
    expose: true,
    title: 'Get hotel price calendar',
    requires: { required: ['property_token'] },
    view: hotelCalendarView,
    summary: hotelCalendarSummary,
    text: hotelCalendarText,
    app: 'hotel-calendar',
    // mainstream basis (an offers page per night), spot-checks and horizons past six months run for tens of seconds
    task: {
      when: (i) => i.basis === 'mainstream' || i.verify_sources > 0 || i.days > 180,
      seconds: (i) => expectedCalendarSeconds(normalizeCalendarRequest(i)),
    },
  },
  // a batch item's result is the collection as its job stores it (its artifact): positions are a call's answer
  handler: ({ zero_retention: _zr, ...input }, ctx) => collect(input, ctx, { position: ctx.transport !== 'batch' }),
});

const SerpCalendarInput = z.strictObject({
  ...CalendarRequest.shape,
  engine: z.literal('metasearch_hotels_calendar').optional().describe('This engine’s name (the compatible API sends it).'),
  property_token: z.string().min(8).max(400).optional().describe('Property token from resolve_hotel; the same as token.'),
  days: queryInt.pipe(z.int().min(1).max(330)).default(90).describe('Nights from start.'),
  adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('Adults per stay.'),
  los: queryInt.pipe(z.int().min(1).max(30)).default(1).describe('Length of stay per quote, in nights.'),
  token: z.string().min(8).max(400).optional().describe('Property token from resolve_hotel (POST /v1/search); give token or property_token.'),
  ...COMPAT_COMMON_FIELDS,
  zero_retention: zeroRetention,
});

export const serpCalendar = defineTool({
  name: 'serp_metasearch_hotels_calendar',
  title: 'Hotel price calendar (compatible search family)',
  description:
    'The hotel price calendar in the compatible search family: the same collection as POST /v1/calendar wrapped in search_metadata and search_parameters; property_token is accepted as an alias of token. 5 credits; empty is free.',
  method: 'POST',
  path: '/v1/serp/metasearch_hotels_calendar',
  tags: ['compatible search'],
  input: SerpCalendarInput,
  output: z.object({ search_metadata: SearchMetadataSchema, search_parameters: z.record(z.string(), z.string()), calendar: CalendarResultSchema }),
  credits: {
    ...calendarCredits,
    max: (i) => calendarCost(normalizeCalendarRequest({ ...i, token: i.token ?? i.property_token ?? '' })),
    actual: (i, o) => calendarCharge(normalizeCalendarRequest({ ...i, token: i.token ?? i.property_token ?? '' }), o.calendar),
  },
  async handler(input, ctx) {
    const { requestId } = ctx;
    const { engine: _engine, zero_retention: _zr, no_cache: _nc, async: _as, property_token, token, ...rest } = input;
    const chosen = token ?? property_token;
    if (!chosen) {
      throw new InvalidInput([{ type: 'missing', loc: ['body', 'property_token'], msg: 'Field required', input: null }]);
    }
    const timer = new SearchTimer();
    const result = await timer.upstream(() => collect({ ...rest, token: chosen }, ctx));
    return {
      search_metadata: timer.metadata(requestId, '/v1/serp/metasearch_hotels_calendar', {
        collection_id: result.collection_id,
        observed_at: result.observed_at,
        wire_bytes: result.wire_bytes,
      }),
      search_parameters: echoParameters({ engine: 'metasearch_hotels_calendar', property_token: chosen, ...rest }),
      calendar: result,
    };
  },
});

export const storedRates = defineTool({
  name: 'get_stored_rates',
  title: 'Stored rates',
  description:
    "The latest stored nightly rate per stay date of a property, as written by your account's calendar collections (POST /v1/calendar and batch items); another account's collections are never visible. Free: no upstream request is made.",
  method: 'GET',
  path: '/v1/rates',
  tags: ['hotels'],
  input: z
    .strictObject({
      ...propertyTokenFields(z.string().min(8).max(400)),
      market: z.enum(PRICING_MARKET_CODES).default('US').describe('Pricing market the rates were collected in.'),
      currency: currency.optional().describe('Currency of the stored rates; default the market’s.'),
      adults: queryInt.pipe(z.int().min(1).max(8)).default(2).describe('Adults the rates were collected for.'),
      los: queryInt.pipe(z.int().min(1).max(30)).default(1).describe('Length of stay of the rates, in nights.'),
      from: isoDate.optional().describe('First stay date, YYYY-MM-DD.'),
      to: isoDate.optional().describe('Last stay date, YYYY-MM-DD.'),
    })
    .transform(asToken),
  output: z.object({
    token: z.string(),
    market: z.string(),
    currency: z.string(),
    adults: z.int(),
    los: z.int(),
    total: z.int(),
    rates: z.array(z.looseObject({ date: z.string(), rate_total: num, observed_at: z.string(), run_id: z.string(), provenance: ProvenanceSchema })),
  }),
  credits: 0,
  errors: { 400: '`to` is before `from`.' },
  async handler(input, { deps, key }) {
    const request = storedRatesRequest({ token: input.token, market: input.market, currency: input.currency, adults: input.adults, los: input.los });
    if (input.from && input.to && input.to < input.from) throw new BadRequest('to is before from');
    const rows = await readStoredRates(deps.sql, key.account_id, { ...request, from: input.from, to: input.to });
    return {
      token: request.token,
      market: request.market,
      currency: request.currency,
      adults: request.adults,
      los: request.los,
      total: rows.length,
      rates: rows.map((r) => ({ ...r.rate, date: r.date, observed_at: r.observed_at.toISOString(), run_id: r.run_id })) as never,
    };
  },
});

const ResultCacheSize = z
  .object({
    entries: z.int().describe('answers kept'),
    bytes: z.int().describe('their size'),
    max_bytes: z.int().describe('the size cap (RESULT_CACHE_MAX_MB)'),
    pending: z.int().describe('fetches under way whose answers identical calls wait for'),
    oldest_observed_at: z.string().nullable().describe('when the oldest answer kept was fetched'),
  })
  .describe("Admin keys only: the shared result cache of the whole service (public web data, no account's).");

const storageStatus = defineTool({
  name: 'get_storage_status',
  title: 'Storage status',
  description:
    "What your account has stored: rate rows, distinct properties, collection runs and the newest observation (never other accounts' figures, admin keys included). An admin key also gets the shared result cache's size (result_cache). Free.",
  method: 'GET',
  path: '/v1/storage',
  tags: ['hotels'],
  input: z.strictObject({}),
  output: z.object({
    stored_rates: z.int(),
    properties: z.int(),
    runs: z.int(),
    newest_observation: z.string().nullable(),
    database: z.enum(['up']),
    result_cache: ResultCacheSize.optional(),
  }),
  credits: 0,
  async handler(_input, { deps, key }) {
    const s = await readStorageStatus(deps.sql, key.account_id);
    const cache = key.role === 'admin' ? await resultCacheSize(deps.sql) : null;
    return {
      ...s,
      newest_observation: s.newest_observation?.toISOString() ?? null,
      database: 'up' as const,
      ...(cache
        ? { result_cache: { ...cache, max_bytes: deps.config.resultCache.maxBytes, oldest_observed_at: cache.oldest_observed_at?.toISOString() ?? null } }
        : {}),
    };
  },
});

export const CALENDAR_TOOLS = [calendar, serpCalendar, storedRates, storageStatus];

import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { csvAnswer, wantsCsv } from '../src/core/csv-answer.js';
import { agenciesOf, listRanges, plannedParityRange, readParityRange, startParityRange } from '../src/core/compsets/parity-range.js';
import { CURRENCIES, isoDate } from '../src/domain/codes.js';
import { InvalidInput, type ValidationIssue } from '../src/domain/errors.js';
import { newId } from '../src/domain/ids.js';
import { DEFAULT_TOLERANCE_PCT, PARITY_CSV_HEADER, parityCsvRows } from '../src/domain/parity-range.js';
import { expiryBounds } from '../src/jobs/run-expiry.js';
import { findParityRange } from '../src/platform/parity-ranges.js';
import { compareSources } from './compare.js';
import { ParityRangeSchema, ParityRangeSummarySchema } from './parity-range-schemas.js';
import { lengthsOfStay, listPage, submission, submissionHeaders } from './compset-schemas.js';

/*
 * Parity over a range for a competitor set's own hotel: REST only (not an MCP tool; the MCP tools
 * stay the 18 read-only ones). A range belongs to the key's account; another account's is a 404.
 */

/** Stays (check-in dates × lengths of stay) one range compares at most. */
const MAX_STAYS = 400;
const MAX_LENGTHS = 7;

const compsetId = z.string().min(1).max(100).describe('the set id returned by POST /v1/compsets');

/** The official site and at least one agency, as the compare path needs them for a verdict. */
function checkSources(sources: Record<string, unknown>, stays: number): void {
  const issues: ValidationIssue[] = [];
  if (!sources.official)
    issues.push({ type: 'missing', loc: ['body', 'sources', 'official'], msg: 'give your own site: sources.official {website}', input: null });
  if (!agenciesOf(sources).length)
    issues.push({ type: 'value_error', loc: ['body', 'sources'], msg: 'name at least one agency beside official', input: Object.keys(sources) });
  if (stays > MAX_STAYS)
    issues.push({ type: 'value_error', loc: ['body', 'days'], msg: `days × lengths of stay is ${stays}, more than ${MAX_STAYS} stays`, input: stays });
  if (issues.length) throw new InvalidInput(issues);
}

const runParityRange = defineTool({
  name: 'run_parity_range',
  title: 'Run parity over a range',
  description: `Your hotel's own site (sources.official, priced through its booking engine as POST /v1/official prices it) against every agency you list, for each check-in date × length of stay, as a durable batch: one POST /v1/ota/compare per stay (its parity verdict and basis) and one POST /v1/calendar per length of stay (the price the metasearch displays, reported apart). Answers 202 with the range; poll its poll_url for progress and the answer (GET /v1/compsets/{compset_id}/parity/{range_id}). Submission is free; each stay is charged as POST /v1/ota/compare (20 credits, nothing when nothing is priced) and each calendar as POST /v1/calendar (5 credits, nothing when it prices no night). At most ${MAX_STAYS} stays. An optional Idempotency-Key makes a retry return the same range.`,
  method: 'POST',
  path: '/v1/compsets/{compset_id}/parity',
  tags: ['compsets'],
  status: 202,
  input: z.strictObject({
    compset_id: compsetId,
    start: isoDate.optional().describe('first check-in date (not in the past); default tomorrow'),
    days: z.int().min(1).max(90).default(14).describe('check-in dates from start (1-90)'),
    los: lengthsOfStay(28, MAX_LENGTHS),
    adults: z.int().min(1).max(8).default(2).describe('adult guests'),
    currency: z.enum(CURRENCIES).nullable().optional().describe("ISO 4217 to ask each source for; default each source's own"),
    hotel: z
      .string()
      .trim()
      .min(2)
      .max(200)
      .nullable()
      .optional()
      .describe("hotel name and city for the agencies' own search where no id is given; default your name for the own hotel"),
    sources: compareSources.describe(
      "as POST /v1/ota/compare takes them: official (your site's website, and its currency and taxes_included where its engine states none) and at least one agency",
    ),
    tolerance_pct: z
      .number()
      .min(0)
      .max(10)
      .default(DEFAULT_TOLERANCE_PCT)
      .describe(
        `a gap of at most this percent of the official total is a meet, not a disparity (currency-conversion rounding); default ${DEFAULT_TOLERANCE_PCT}`,
      ),
    timeout_s: z.number().min(1).max(120).default(45).describe('seconds each source may take in each stay'),
    priority: z.int().min(0).max(9).default(5).describe('0-9, higher first, as batches'),
  }),
  output: ParityRangeSchema,
  credits: 0,
  headers: submissionHeaders('range'),
  errors: { 404: 'No set of your account has that id.', 409: 'The Idempotency-Key was already used with a different body.' },
  async handler({ compset_id, ...ask }, { deps, key, headers, requestId, transport, commitWithDoor }) {
    const { idem, start } = submission(headers, ask.start);
    const sources = ask.sources as Record<string, unknown>;
    checkSources(sources, ask.days * ask.los.length);
    // a watch's range re-prices every stay, as a watch's own checks do
    const asked = { ...ask, start, sources, currency: ask.currency ?? null, hotel: ask.hotel ?? null, live: transport === 'watch' };
    const expiry = expiryBounds(deps.config);
    if (transport === 'watch' && commitWithDoor) {
      // written and queued with the check that submits it, or not at all (a check refused at commit)
      const planned = await plannedParityRange(deps.sql, deps.queue.boss(), key, compset_id, asked, { expiry, requestId });
      commitWithDoor(planned.commit);
      return planned.answer;
    }
    const range = await startParityRange(deps.sql, deps.queue.boss(), key, compset_id, asked, {
      idempotencyKey: idem ?? newId('paritysubmit'),
      expiry,
      requestId,
    });
    // read before waking this process's workers: the answer shows the range as committed (queued)
    const answer = await readParityRange(deps.sql, key.account_id, range);
    deps.queue.wake();
    return answer;
  },
});

const getParityRange = defineTool({
  name: 'get_parity_range',
  title: 'Parity over a range',
  description:
    'A parity range: its progress and, as far as the batch has come, per agency the win/meet/loss counts and shares (of the stays compared on one basis), each disparity (an agency below your official all-in total by more than the tolerance) with amount, percent, basis and a check (the one comparison that shows it again), the agencies selling stays your site has sold out, and each stay with the metasearch-displayed price apart. JSON, or CSV (one line per stay and agency) with format=csv or Accept: text/csv. Free.',
  method: 'GET',
  path: '/v1/compsets/{compset_id}/parity/{range_id}',
  tags: ['compsets'],
  input: z.strictObject({
    compset_id: compsetId,
    range_id: z.string().min(1).max(100).describe('the range id returned by POST /v1/compsets/{compset_id}/parity'),
    format: z.enum(['json', 'csv']).optional().describe('csv: one line per stay and agency (default: as Accept asks; JSON)'),
  }),
  output: ParityRangeSchema,
  csv: `one line per stay and agency: ${PARITY_CSV_HEADER.join(', ')}`,
  credits: 0,
  errors: { 404: 'No parity range of your account has that id in that set.' },
  async handler({ compset_id, range_id, format }, { deps, key, headers }) {
    const range = await readParityRange(deps.sql, key.account_id, await findParityRange(deps.sql, key.account_id, compset_id, range_id));
    if (!wantsCsv(format, headers)) return range;
    // sent as these bytes by the REST door (text/csv, a download)
    return csvAnswer(`${range.id}.csv`, PARITY_CSV_HEADER, parityCsvRows(range.stays)) as unknown as typeof range;
  },
});

const listParityRangesTool = defineTool({
  name: 'list_parity_ranges',
  title: 'List parity ranges',
  description:
    'The set’s parity ranges with their request and progress, newest first; each one’s verdicts, disparities and CSV are at its poll_url (GET /v1/compsets/{compset_id}/parity/{range_id}). Free.',
  method: 'GET',
  path: '/v1/compsets/{compset_id}/parity',
  tags: ['compsets'],
  input: z.strictObject({ compset_id: compsetId, ...listPage }),
  output: z.object({ ranges: z.array(ParityRangeSummarySchema), limit: z.int(), offset: z.int() }),
  credits: 0,
  errors: { 404: 'No set of your account has that id.' },
  async handler({ compset_id, limit, offset }, { deps, key }) {
    return { ranges: await listRanges(deps.sql, key.account_id, compset_id, limit, offset), limit, offset };
  },
});

export const PARITY_RANGE_TOOLS: Tool[] = [runParityRange, listParityRangesTool, getParityRange];

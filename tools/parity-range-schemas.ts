import { z } from 'zod';
import { ParitySchema } from '../src/domain/parity.js';
import { ProvenanceSchema } from '../src/domain/provenance.js';

/** Schemas of the parity range's answer (tools/parity-range.ts; src/domain/parity-range.ts builds it). */

const provenance = ProvenanceSchema.nullable();
const Basis = ParitySchema.shape.basis.unwrap();

const AgencyOutcomeSchema = z.object({
  source: z.string(),
  outcome: z
    .enum(['win', 'meet', 'loss', 'selling_while_sold_out', 'not_compared'])
    .describe(
      'win: your site is cheaper; meet: equal within the tolerance; loss: the agency is cheaper by more than it (a disparity); selling_while_sold_out: it sells a stay your site has sold out; not_compared: see reason',
    ),
  total: z.number().nullable().describe("the agency's all-in total on the basis (or its price while your site is sold out)"),
  currency: z.string().nullable(),
  amount: z.number().nullable().describe('official minus agency, in the basis currency (positive: the agency is cheaper)'),
  pct: z.number().nullable().describe('amount in percent of the official total'),
  reason: z.string().nullable().describe('why the agency was not compared for this stay'),
  provenance,
});

const StaySchema = z.object({
  date: z.string().describe('check-in date'),
  los: z.int().describe('nights'),
  check_out: z.string().nullable(),
  status: z
    .enum(['pending', 'failed', 'official_cheapest', 'undercut', 'official_sold_out', 'not_comparable'])
    .describe("the stay's comparison verdict (POST /v1/ota/compare's parity.status); pending: not compared yet; failed: its comparison failed"),
  reason: z.string().nullable(),
  basis: Basis.nullable().describe('what was compared: all-in totals of the same stay (nights, guests, rooms) in one currency'),
  official: z.object({ total: z.number(), currency: z.string(), provenance }).nullable().describe("your site's cheapest all-in total"),
  metasearch: z
    .object({ total: z.number(), currency: z.string().nullable(), provenance })
    .nullable()
    .describe('the price the metasearch displays for the stay (its calendar), reported apart: never counted as an agency’s bookable price'),
  agencies: z.array(AgencyOutcomeSchema).describe('one per agency, in the order POST /v1/ota/compare lists its sources'),
});

const AgencySummarySchema = z.object({
  source: z.string(),
  win: z.int(),
  meet: z.int(),
  loss: z.int(),
  compared: z.int().describe('stays compared on one basis (win + meet + loss): the shares are of these'),
  not_compared: z.int(),
  selling_while_sold_out: z.int(),
  win_pct: z.number().nullable(),
  meet_pct: z.number().nullable(),
  loss_pct: z.number().nullable(),
});

const DisparitySchema = z.object({
  date: z.string(),
  los: z.int(),
  check_out: z.string(),
  source: z.string(),
  official_total: z.number(),
  agency_total: z.number(),
  currency: z.string(),
  amount: z.number().describe('official minus agency'),
  pct: z.number().describe('amount in percent of the official total'),
  basis: Basis,
  official_provenance: provenance,
  agency_provenance: provenance,
  check: z
    .object({ method: z.literal('POST'), path: z.literal('/v1/ota/compare'), body: z.record(z.string(), z.unknown()) })
    .describe('the one comparison (your site and that agency, that stay) that shows the disparity again'),
});

const SoldOutSchema = z.object({
  date: z.string(),
  los: z.int(),
  check_out: z.string(),
  source: z.string(),
  total: z.number(),
  currency: z.string().nullable(),
  provenance,
});

const RangeFields = {
  id: z.string(),
  compset_id: z.string(),
  job_id: z.string().describe('the batch running the range (GET /v1/jobs/{job_id} shows it too)'),
  poll_url: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
  items_total: z.int().describe('comparisons (dates × lengths of stay) and calendars (one per length of stay)'),
  items_succeeded: z.int(),
  items_failed: z.int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  request: z.object({
    start: z.string(),
    days: z.int(),
    los: z.array(z.int()),
    adults: z.int(),
    currency: z.string().nullable(),
    hotel: z.string().nullable(),
    sources: z.record(z.string(), z.unknown()),
    tolerance_pct: z.number(),
  }),
  own: z.object({ property_token: z.string(), name: z.string() }).describe('your hotel as the set named it then'),
};

/** A range as a set's list shows it: its request and its batch's progress (the answer: GET its poll_url). */
export const ParityRangeSummarySchema = z.object(RangeFields);

export const ParityRangeSchema = z.object({
  ...RangeFields,
  agencies: z.array(AgencySummarySchema).describe('per agency over the range'),
  disparities: z.array(DisparitySchema).describe('every loss: an agency below your official all-in total by more than the tolerance'),
  selling_while_sold_out: z.array(SoldOutSchema).describe('agencies selling a stay your site has sold out'),
  stays: z.array(StaySchema).describe('date by date, then length of stay by length of stay'),
});

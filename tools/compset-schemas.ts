import { z } from 'zod';
import { addDays, earliestStayDate, todayUtc } from '../src/domain/dates.js';
import { InvalidInput } from '../src/domain/errors.js';
import { ProvenanceSchema } from '../src/domain/provenance.js';
import { queryInt } from '../src/domain/query-params.js';
import type { CompsetRow } from '../src/platform/compsets.js';

/** Schemas of the competitor-set routes' answers (tools/compsets.ts). */

const Member = z.object({ property_token: z.string(), name: z.string() });

export const CompsetSchema = z.object({
  id: z.string(),
  name: z.string(),
  own: Member.describe('your own hotel'),
  competitors: z.array(Member),
  created_at: z.string(),
  updated_at: z.string(),
});

export const compsetResource = (c: CompsetRow): z.output<typeof CompsetSchema> => ({
  id: c.id,
  name: c.name,
  own: c.own,
  competitors: c.competitors,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

const ShopRequestSchema = z.object({
  start: z.string(),
  days: z.int(),
  los: z.array(z.int()),
  adults: z.int(),
  currency: z.string(),
  market: z.string(),
  sellers: z.boolean().describe('each stay’s sellers too (a per-seller shop)'),
});

const CellSellerSchema = z.object({
  seller: z.string().describe('the seller’s normalized name (booking, expedia …), as POST /v1/offers names it'),
  name: z.string().describe('the seller’s name as the page states it'),
  is_official: z.boolean().describe('the hotel’s own site'),
  total: z.number().nullable().describe('the seller’s cheapest all-in stay total; null where the page shows its price before taxes only'),
  currency: z.string().nullable(),
  link: z.string().nullable(),
  provenance: ProvenanceSchema.nullable().describe('that price’s observation; null when total is null'),
});

const GridCellSchema = z.object({
  property_token: z.string(),
  name: z.string(),
  own: z.boolean(),
  state: z
    .enum(['priced', 'unavailable', 'failed', 'pending'])
    .describe('priced; unavailable: the upstream stated no price for this stay; failed: its calendar failed; pending: not fetched yet'),
  total: z.number().nullable().describe('the all-in stay total the calendar stated for exactly this stay; null unless priced'),
  currency: z.string().nullable(),
  seller: z.string().nullable().describe('the seller of that price; the metasearch calendar names none (null)'),
  provenance: ProvenanceSchema.nullable(),
  sellers_state: z
    .enum(['listed', 'none', 'failed', 'pending'])
    .optional()
    .describe('per-seller shops only: listed; none: the stay’s offers list no seller; failed: its offers failed; pending: not fetched yet'),
  sellers: z
    .array(CellSellerSchema)
    .optional()
    .describe(
      'per-seller shops only: each seller of the stay (POST /v1/offers for it) with its cheapest all-in total, cheapest first; the cell’s total, the rank and the median stay the calendar’s',
    ),
});

const GridRowSchema = z.object({
  date: z.string().describe('check-in date'),
  los: z.int().describe('nights'),
  currency: z.string().nullable().describe('the currency the rank and median compare in (the own hotel’s, else the first priced property’s)'),
  own_total: z.number().nullable(),
  own_rank: z.int().nullable().describe('1 = your hotel is the cheapest priced property; null when it has no price'),
  priced: z.int().describe('properties priced in that currency, yours included'),
  competitors_median: z.number().nullable().describe('median of the priced competitors; null when none is priced'),
  diff_to_median: z.number().nullable(),
  diff_to_median_pct: z.number().nullable(),
  cells: z.array(GridCellSchema).describe('one per property, yours first'),
});

const ShopFields = {
  id: z.string(),
  compset_id: z.string(),
  job_id: z.string().describe('the calendar batch running the shop (GET /v1/jobs/{job_id} shows it too)'),
  poll_url: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
  items_total: z
    .int()
    .describe('items to run: a calendar per property and length of stay, and for a per-seller shop the offers of each property, date and length'),
  items_succeeded: z.int(),
  items_failed: z.int(),
  credits_max: z.int().describe('the most the shop costs, stated when submitted: each calendar as POST /v1/calendar, each stay’s offers as POST /v1/offers'),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  request: ShopRequestSchema,
};

export const ShopSchema = z.object({
  ...ShopFields,
  properties: z.array(Member.extend({ own: z.boolean() })).describe('the set as it was when the shop started'),
  failures: z.array(
    z.object({
      property_token: z.string(),
      los: z.int(),
      date: z.string().optional().describe('a stay’s offers that failed: its check-in date (absent for a failed calendar)'),
      error: z.string().nullable(),
    }),
  ),
  rows: z.array(GridRowSchema).describe('date by date, then length of stay by length of stay'),
});

export const ShopSummarySchema = z.object(ShopFields);

/** Lengths of stay a batch over a set (a rate shop, a parity range) prices: up to `lengths` of them, each 1-`nights`. */
export const lengthsOfStay = (nights: number, lengths: number) =>
  z
    .array(z.int().min(1).max(nights))
    .min(1)
    .max(lengths)
    .refine((l) => new Set(l).size === l.length, 'each length of stay once')
    .default([1])
    .describe(`lengths of stay in nights (1-${lengths} of them, each 1-${nights})`);

/** The optional Idempotency-Key of a batch submission over a set (`what`: a shop, a range). */
export const submissionHeaders = (what: string) => ({
  'Idempotency-Key': {
    description: `Optional unique key for this ${what} (1-200 characters): the same key with the same body returns the original ${what}; with another body it is a 409.`,
    required: false,
    schema: { type: 'string' as const, minLength: 1, maxLength: 200 },
  },
});

/** A submission's Idempotency-Key and first check-in date (default tomorrow), each refused with a located 422 when out of bounds. */
export function submission(headers: Record<string, string | undefined>, start: string | undefined): { idem: string | undefined; start: string } {
  const idem = headers['idempotency-key'];
  if (idem !== undefined && (idem.length < 1 || idem.length > 200)) {
    throw new InvalidInput([{ type: 'string_too_long', loc: ['header', 'idempotency-key'], msg: 'Idempotency-Key must be 1-200 characters', input: idem }]);
  }
  const first = start ?? addDays(todayUtc(), 1);
  if (first < earliestStayDate()) throw new InvalidInput([{ type: 'date_future', loc: ['body', 'start'], msg: 'Date should be in the future', input: first }]);
  return { idem, start: first };
}

/** A page of a list over sets (sets, a set's shops, its parity ranges): newest first. */
export const listPage = {
  limit: queryInt.pipe(z.int().min(1).max(100)).default(20).describe('how many (1-100)'),
  offset: queryInt.pipe(z.int().min(0).max(100_000)).default(0).describe('how many to skip'),
};

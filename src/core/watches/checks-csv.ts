/**
 * A watch's checks as CSV lines (GET /v1/watches/{watch_id}/checks and the dashboard's download):
 * each check resource flattened, what the check did not see an empty field.
 */
import type { z } from 'zod';
import type { CsvValue } from '../../domain/csv.js';
import type { CheckSchema } from './resource.js';

type CheckOut = z.output<typeof CheckSchema>;

export const CHECKS_CSV_HEADER = [
  'watch_id',
  'check_id',
  'checked_at',
  'trigger',
  'period',
  'credits',
  'currency',
  'cheapest_key',
  'cheapest_total',
  'cheapest_currency',
  'cheapest_observation_id',
  'cheapest_observed_at',
  'cheapest_source',
  'changed',
  'fired',
  'parity_status',
  'parity_official_total',
  'parity_cheapest_agency',
  'parity_cheapest_agency_total',
  'parity_undercuts',
  'run_id',
  'rows_written',
  'rows_changed',
  'rows_removed',
];

/** One CSV line of a check: its JSON fields flattened; what the check did not see is an empty field. */
export function checkCsvLine(watchId: string, c: CheckOut): CsvValue[] {
  const p = c.parity;
  return [
    watchId,
    c.id,
    c.checked_at,
    c.trigger,
    c.period,
    c.credits,
    c.currency,
    c.cheapest?.key ?? null,
    c.cheapest?.total ?? null,
    c.cheapest?.currency ?? null,
    c.cheapest?.provenance?.observation_id ?? null,
    c.cheapest?.provenance?.observed_at ?? null,
    c.cheapest?.provenance?.source ?? null,
    c.changed,
    c.fired,
    p?.status ?? null,
    p?.official?.total ?? null,
    p?.cheapest_agency?.source ?? null,
    p?.cheapest_agency?.total ?? null,
    p ? p.undercuts.length : null,
    c.stored?.run_id ?? null,
    c.stored?.rows_written ?? null,
    c.stored?.rows_changed ?? null,
    c.stored?.rows_removed ?? null,
  ];
}

import type { AppDeps } from '../app/deps.js';
import type { NormalizedCalendarRequest } from './calendar-request.js';

/** One calendar collection's result (spec "Calendar result"); rates rows carry their provenance. */
export interface CalendarResult {
  token: string;
  collection_id: string;
  observed_at: string;
  market: string;
  requested_days: number;
  coverage: number;
  wire_bytes: number;
  elapsed_s: number;
  calendar_elapsed_s: number;
  egress_mode: string;
  tax_profile: Record<string, unknown> | null;
  unpriced_dates: string[];
  validation: Record<string, unknown>;
  booking_window?: Record<string, unknown>;
  basis_applied?: string;
  source_check?: Record<string, unknown>;
  rates: Array<Record<string, unknown> & { date: string; provenance: { observation_id: string } }>;
}

/** Collects one property's price calendar; implemented by the metasearch source. */
export interface CalendarService {
  /** `deps`: the calling operation's scope (its signal and upstream session); the service's own otherwise. */
  run(request: NormalizedCalendarRequest, deps?: AppDeps): Promise<CalendarResult>;
}

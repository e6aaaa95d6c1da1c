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

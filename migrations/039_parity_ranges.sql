-- Issue 42: parity over a range. A batch item runs one of two operations through the call
-- lifecycle: a calendar (POST /v1/calendar, every item until now) or one stay's comparison of the
-- official site with the agencies (POST /v1/ota/compare). `request` is that operation's input.
ALTER TABLE calendar_job_items ADD COLUMN kind text NOT NULL DEFAULT 'calendar' CHECK (kind IN ('calendar', 'compare'));

-- One parity range over a competitor set's own hotel: its batch (one compare item per check-in
-- date × length of stay, one calendar item per length of stay for the metasearch-displayed
-- price), what it asked (the agencies, the tolerance) and the own hotel as it was then. Written in
-- the batch's own transaction, as a rate shop's row is.
CREATE TABLE compset_parity_ranges (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id),
  compset_id  text NOT NULL REFERENCES compsets(id) ON DELETE CASCADE,
  job_id      text NOT NULL UNIQUE REFERENCES calendar_jobs(id),
  request     jsonb NOT NULL,
  own         jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compset_parity_ranges_set ON compset_parity_ranges (account_id, compset_id, created_at DESC);

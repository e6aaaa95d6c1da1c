-- The latest stored rate per property, stay and occupancy, written by calendar collections.
-- One row per (token, market, currency, adults, los, stay date); observation ids are unique,
-- so a collection replayed after a crash writes nothing twice.

-- One row per collection written (a job item or a direct calendar call); a job's items share its run_id.
CREATE TABLE scrape_runs (
  collection_key text PRIMARY KEY,
  run_id       text NOT NULL,
  token        text NOT NULL,
  collection_id text NOT NULL,
  rows_written integer NOT NULL,
  rows_changed integer NOT NULL,
  rows_removed integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stored_rates (
  token          text NOT NULL,
  market         text NOT NULL,
  currency       text NOT NULL,
  adults         integer NOT NULL,
  los            integer NOT NULL,
  stay_date      date NOT NULL,
  rate_total     numeric,
  rate           jsonb NOT NULL,
  observation_id text NOT NULL UNIQUE,
  collection_id  text NOT NULL,
  run_id         text NOT NULL,
  observed_at    timestamptz NOT NULL,
  PRIMARY KEY (token, market, currency, adults, los, stay_date)
);
CREATE INDEX scrape_runs_run ON scrape_runs (run_id);

-- Issue 42: the history of stored rates (GET /v1/rates/history). stored_rates keeps the latest
-- price per stay; every write that changes it (a new price, a changed one, a stay no longer priced)
-- is also appended here, in the same statement, with the observation that saw it. A price holds
-- from its row's observed_at until the stay's next row. Only changes are kept: an unchanged price
-- seen again adds nothing (as stored_rates keeps its first observation).
CREATE TABLE rate_history (
  account_id     text NOT NULL REFERENCES accounts(id),
  token          text NOT NULL,
  market         text NOT NULL,
  currency       text NOT NULL,
  adults         integer NOT NULL,
  los            integer NOT NULL,
  stay_date      date NOT NULL,
  -- null: the stay was no longer priced (sold out, or no bookable offer) from observed_at on
  rate_total     numeric,
  rate           json,
  collection_id  text NOT NULL,
  run_id         text NOT NULL,
  observed_at    timestamptz NOT NULL
);
CREATE INDEX rate_history_stay ON rate_history (account_id, token, los, stay_date, observed_at);

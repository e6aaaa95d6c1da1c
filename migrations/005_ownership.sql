-- Every persisted record belongs to an account; every read filters on it.
--
-- Convention for every table of customer data (later migrations follow it):
--   account_id text NOT NULL REFERENCES accounts(id)  -- the owner; reads are WHERE account_id = <caller's account>
--   key_id     text REFERENCES api_keys(id)           -- the key whose call made the row, where one did
--   an index led by account_id that serves the table's reads.
-- Every API key has an account (api_keys.account_id NOT NULL). A key made without a plan gets an
-- account of its own with plan 'none': not metered, no credits. Reads documented as per key (usage and
-- request history, as the contract says) filter on key_id, which lies inside the account.
-- Platform records that are no customer's data: dashboard_sign_in_attempts (security log),
-- dashboard_sessions without account (the pre-sign-in session), rate_buckets (transient counters).

-- 1. Keys without an account: one account per rotation chain (a key and the keys that replaced it).
CREATE TEMP TABLE key_chain ON COMMIT DROP AS
WITH RECURSIVE chain (id, root) AS (
  SELECT k.id, k.id FROM api_keys k
  WHERE k.account_id IS NULL AND NOT EXISTS (SELECT 1 FROM api_keys p WHERE p.replaced_by = k.id)
  UNION ALL
  SELECT next.id, chain.root FROM chain
    JOIN api_keys k ON k.id = chain.id
    JOIN api_keys next ON next.id = k.replaced_by AND next.account_id IS NULL
)
SELECT id, root FROM chain;

CREATE TEMP TABLE chain_account ON COMMIT DROP AS
SELECT root, 'acct_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16) AS account_id
FROM (SELECT DISTINCT root FROM key_chain) r;

INSERT INTO accounts (id, name, plan)
SELECT c.account_id, k.name, 'none' FROM chain_account c JOIN api_keys k ON k.id = c.root;

UPDATE api_keys k SET account_id = c.account_id
FROM key_chain kc JOIN chain_account c ON c.root = kc.root
WHERE k.id = kc.id;

ALTER TABLE api_keys ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX api_keys_account ON api_keys (account_id);

-- 2. Request history: the key's account.
ALTER TABLE request_history ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE request_history h SET account_id = k.account_id FROM api_keys k WHERE k.id = h.key_id;
ALTER TABLE request_history ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX request_history_account_time ON request_history (account_id, created_at);

-- 3. Idempotency records: the key's account.
ALTER TABLE idempotency_keys ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE idempotency_keys i SET account_id = k.account_id FROM api_keys k WHERE k.id = i.key_id;
ALTER TABLE idempotency_keys ALTER COLUMN account_id SET NOT NULL;

-- 4. Batches and their items: the submitting key's account.
UPDATE calendar_jobs j SET account_id = k.account_id FROM api_keys k WHERE k.id = j.key_id AND j.account_id IS NULL;
ALTER TABLE calendar_jobs ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX calendar_jobs_account ON calendar_jobs (account_id, created_at DESC);

ALTER TABLE calendar_job_items ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE calendar_job_items i SET account_id = j.account_id FROM calendar_jobs j WHERE j.id = i.job_id;
ALTER TABLE calendar_job_items ALTER COLUMN account_id SET NOT NULL;

-- 5. Collection runs: a batch item's job, or the direct call (its collection key is the request id).
ALTER TABLE scrape_runs ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE scrape_runs r SET account_id = i.account_id FROM calendar_job_items i WHERE i.id = r.collection_key;
UPDATE scrape_runs r SET account_id = h.account_id FROM request_history h WHERE h.id = r.collection_key AND r.account_id IS NULL;

-- 6. Stored rates: the account of the run that last wrote the row. Rows and runs no account can be
-- traced to are dropped rather than handed to anyone (they are re-collectable observations).
ALTER TABLE stored_rates ADD COLUMN account_id text REFERENCES accounts(id);
UPDATE stored_rates s SET account_id = r.account_id
FROM (SELECT DISTINCT ON (run_id) run_id, account_id FROM scrape_runs WHERE account_id IS NOT NULL ORDER BY run_id, created_at) r
WHERE r.run_id = s.run_id;
DELETE FROM stored_rates WHERE account_id IS NULL;
DELETE FROM scrape_runs WHERE account_id IS NULL;
ALTER TABLE scrape_runs ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE stored_rates ALTER COLUMN account_id SET NOT NULL;

-- One latest rate per account, property, stay and occupancy; the key serves GET /v1/rates and the
-- per-account counts of GET /v1/storage.
ALTER TABLE stored_rates DROP CONSTRAINT stored_rates_pkey;
ALTER TABLE stored_rates ADD PRIMARY KEY (account_id, token, market, currency, adults, los, stay_date);
CREATE INDEX stored_rates_account_observed ON stored_rates (account_id, observed_at);
CREATE INDEX scrape_runs_account_run ON scrape_runs (account_id, run_id);

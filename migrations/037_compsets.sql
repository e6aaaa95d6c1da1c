-- Issue 42: competitor sets and their rate shops.
-- A set is an account's own hotel and 1-20 competitors, each by property token with the name the
-- account gives it. A rate shop over a set runs as one calendar job (its items are the set's
-- properties × lengths of stay); its row is written in the job's own transaction, so a shop
-- never exists without its job, nor a job of a shop without its row.
CREATE TABLE compsets (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id),
  name        text NOT NULL,
  -- {property_token, name}
  own         jsonb NOT NULL,
  -- [{property_token, name}], 1 to 20
  competitors jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compsets_account ON compsets (account_id, created_at DESC);

-- One rate shop: its calendar job, what it asked and the set's properties as they were then
-- (a later edit of the set does not change a shop's grid).
CREATE TABLE compset_shops (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id),
  compset_id  text NOT NULL REFERENCES compsets(id) ON DELETE CASCADE,
  job_id      text NOT NULL UNIQUE REFERENCES calendar_jobs(id),
  request     jsonb NOT NULL,
  properties  jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compset_shops_set ON compset_shops (account_id, compset_id, created_at DESC);

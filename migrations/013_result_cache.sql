-- The shared result cache (issue 28): answers of public web data, keyed by the operation and its
-- normalised input, never by who asked. Owned by src/platform/result-cache.ts.
-- UNLOGGED: its writes skip the WAL and a crash of PostgreSQL empties it; the next calls refill it.
CREATE UNLOGGED TABLE result_cache (
  -- sha256 (hex) of the operation, its output format and its normalised input
  key text PRIMARY KEY,
  operation text NOT NULL,
  -- pending: a process is fetching it (claim names the fetch); ready: answer holds the answer
  state text NOT NULL CHECK (state IN ('pending', 'ready')),
  claim text,
  -- the answer's JSON as it was first sent (text, not jsonb: its key order is kept)
  answer text,
  -- facts of the fetch a door's envelope reuses (the compatible search's timings, its request URL)
  facts jsonb,
  bytes int NOT NULL DEFAULT 0,
  -- the request that fetched it: its id inside the answer is replaced by the id of each hit
  request_id text,
  -- when the answer was fetched (pending: when the claim was made)
  observed_at timestamptz NOT NULL DEFAULT now(),
  -- ready: past it the answer is never served; pending: past it another process may claim the fetch
  expires_at timestamptz NOT NULL
);
CREATE INDEX result_cache_expires ON result_cache (expires_at);

-- A call answered from the result cache (free) is recorded as one.
ALTER TABLE request_history ADD COLUMN cache_hit boolean NOT NULL DEFAULT false;

-- Upstream outcomes per source, shared by every API and worker process on this database so that
-- they agree on a source's state. Each process adds its counts per minute with one upsert every
-- few seconds (cheap writes); rows older than two hours are pruned.
CREATE TABLE source_outcomes (
  source     text NOT NULL,
  minute     timestamptz NOT NULL,
  outcome    text NOT NULL CHECK (outcome IN ('ok', 'blocked', 'contract_changed', 'timeout', 'upstream_error', 'unreachable')),
  count      integer NOT NULL,
  latency_ms bigint NOT NULL,
  PRIMARY KEY (source, minute, outcome)
);
CREATE INDEX source_outcomes_minute ON source_outcomes (minute);

-- The last success and the last contract change per source, kept beyond the pruned window.
CREATE TABLE source_marks (
  source                  text PRIMARY KEY,
  last_ok_at              timestamptz,
  last_contract_change_at timestamptz
);

-- The batch queue depth is read at every metrics scrape: count open items without a scan.
CREATE INDEX calendar_job_items_open ON calendar_job_items (status) WHERE status IN ('queued', 'running');

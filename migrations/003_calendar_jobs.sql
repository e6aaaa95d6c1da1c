-- Durable calendar batches. pg-boss (schema pgboss) carries one queue job per item;
-- these tables are the customer-facing state and the source of truth for effects.

CREATE TABLE calendar_jobs (
  id                  text PRIMARY KEY,
  key_id              text NOT NULL REFERENCES api_keys(id),
  account_id          text REFERENCES accounts(id),
  status              text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'partial', 'failed')),
  priority            integer NOT NULL CHECK (priority BETWEEN 0 AND 9),
  callback_url        text,
  callback_status     text NOT NULL CHECK (callback_status IN ('not_configured', 'pending', 'delivered', 'failed')),
  callback_attempts   integer NOT NULL DEFAULT 0,
  callback_last_error text,
  artifact_uri        text,
  artifact_sha256     text,
  result_summary      jsonb NOT NULL DEFAULT '{}'::jsonb,
  error               text,
  items_total         integer NOT NULL,
  items_succeeded     integer NOT NULL DEFAULT 0,
  items_failed        integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  started_at          timestamptz,
  finished_at         timestamptz
);
CREATE INDEX calendar_jobs_key ON calendar_jobs (key_id, created_at DESC);

CREATE TABLE calendar_job_items (
  id          text PRIMARY KEY,
  job_id      text NOT NULL REFERENCES calendar_jobs(id),
  item_index  integer NOT NULL,
  token       text NOT NULL,
  label       text,
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  request     jsonb NOT NULL,
  result      jsonb,
  error       text,
  attempts    integer NOT NULL DEFAULT 0,
  credits     integer NOT NULL DEFAULT 0,
  started_at  timestamptz,
  finished_at timestamptz,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (job_id, item_index)
);

-- Watches: an account's standing order to re-price a target (an operation and its input) on a
-- schedule and to say when a rule fires. The scheduler is pg-boss: each scheduled check is a queue
-- entry for one slot (`seq`) of the watch's schedule. A check's outcome, its stored rates, its
-- charge and history row, its event and the next slot's queue entry commit in one transaction,
-- guarded by the slot (`UNIQUE (watch_id, period)`), so a slot is checked and charged at most once
-- whatever the number of workers and crashes.
CREATE TABLE watches (
  id                text PRIMARY KEY,
  account_id        text NOT NULL REFERENCES accounts(id),
  -- the key that created it: checks are recorded under it (history rows need a key), rotated or not
  key_id            text NOT NULL REFERENCES api_keys(id),
  name              text,
  operation         text NOT NULL CHECK (operation IN ('calendar', 'offers', 'compare')),
  -- the operation's input, as given (validated again at every check)
  target            jsonb NOT NULL,
  rule              jsonb NOT NULL,
  every_hours       integer NOT NULL CHECK (every_hours BETWEEN 1 AND 168),
  callback_url      text,
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  paused_reason     text CHECK (paused_reason IN ('paused_by_user', 'insufficient_credits')),
  credits_per_check integer NOT NULL,
  -- the schedule slot to check next; every slot is checked once (or counted in periods_missed)
  seq               integer NOT NULL DEFAULT 0,
  next_check_at     timestamptz NOT NULL,
  -- a worker holds the slot until then (a killed worker's hold runs out, another takes the slot)
  claimed_until     timestamptz,
  -- which process holds it (host/pid), for operators and for telling a dead holder from a live one
  claimed_by        text,
  -- failed attempts of the current slot (upstream failures: retried later, charged nothing)
  failures          integer NOT NULL DEFAULT 0,
  last_error        text,
  last_check_id     text,
  last_check_at     timestamptz,
  periods_missed    integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'paused') = (paused_reason IS NOT NULL))
);
CREATE INDEX watches_account ON watches (account_id, created_at DESC);
CREATE INDEX watches_due ON watches (next_check_at) WHERE status = 'active';
CREATE INDEX watches_unpaid ON watches (account_id) WHERE paused_reason = 'insufficient_credits';

-- One row per check that succeeded; its id is the check's request id (history row, ledger charge).
CREATE TABLE watch_checks (
  id          text PRIMARY KEY,
  watch_id    text NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
  account_id  text NOT NULL REFERENCES accounts(id),
  -- the schedule slot it checked; null for a check asked for with POST /v1/watches/{id}/check
  period      integer,
  trigger     text NOT NULL CHECK (trigger IN ('schedule', 'request')),
  credits     integer NOT NULL,
  currency    text,
  cheapest    numeric,
  -- what was seen: every night, seller or source with its price and provenance
  observation jsonb NOT NULL,
  changes     jsonb NOT NULL,
  fired       boolean NOT NULL,
  parity      jsonb,
  run         jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (watch_id, period)
);
CREATE INDEX watch_checks_watch ON watch_checks (watch_id, created_at DESC);

-- watch.triggered events, as delivered (Standard Webhooks) and listed at GET /v1/watches/{id}/events.
CREATE TABLE watch_events (
  id                  text PRIMARY KEY,
  watch_id            text NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
  account_id          text NOT NULL REFERENCES accounts(id),
  check_id            text NOT NULL REFERENCES watch_checks(id) ON DELETE CASCADE,
  type                text NOT NULL,
  payload             jsonb NOT NULL,
  callback_url        text,
  callback_status     text NOT NULL CHECK (callback_status IN ('not_configured', 'pending', 'delivered', 'failed')),
  callback_attempts   integer NOT NULL DEFAULT 0,
  callback_last_error text,
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watch_events_watch ON watch_events (watch_id, created_at DESC);

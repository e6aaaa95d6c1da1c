-- Accounts, API keys, request history, rate limiting, credits and idempotency.

CREATE TABLE accounts (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  email        text UNIQUE,
  plan         text NOT NULL DEFAULT 'free',
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id                 text PRIMARY KEY,
  account_id         text REFERENCES accounts(id),
  name               text NOT NULL,
  prefix             text NOT NULL,
  key_hash           bytea NOT NULL UNIQUE,
  rate_limit_per_min integer NOT NULL CHECK (rate_limit_per_min > 0),
  role               text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  created_at         timestamptz NOT NULL DEFAULT now(),
  revoked_at         timestamptz,
  replaced_by        text REFERENCES api_keys(id)
);
-- One live key per name: rotation revokes the old one in the same transaction.
CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;

CREATE TABLE request_history (
  id             text PRIMARY KEY,
  key_id         text NOT NULL REFERENCES api_keys(id),
  method         text NOT NULL,
  path           text NOT NULL,
  status         integer NOT NULL,
  duration_ms    double precision NOT NULL,
  response_bytes integer NOT NULL,
  credits        integer NOT NULL DEFAULT 0,
  rate_limited   boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_history_key_time ON request_history (key_id, created_at);

-- Sliding 60-second window in one-second buckets, shared by every API process on the database.
CREATE UNLOGGED TABLE rate_buckets (
  key_id text NOT NULL,
  sec    bigint NOT NULL,
  n      integer NOT NULL,
  PRIMARY KEY (key_id, sec)
);

CREATE FUNCTION rate_limit_take(p_key text, p_limit integer) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  now_s bigint := floor(extract(epoch FROM clock_timestamp()));
  used  bigint;
BEGIN
  -- Serialises one key's requests so that N+k concurrent calls admit exactly N.
  PERFORM pg_advisory_xact_lock(hashtext('rate:' || p_key));
  SELECT coalesce(sum(n), 0) INTO used FROM rate_buckets WHERE key_id = p_key AND sec > now_s - 60;
  IF used >= p_limit THEN
    RETURN false;
  END IF;
  INSERT INTO rate_buckets (key_id, sec, n) VALUES (p_key, now_s, 1)
    ON CONFLICT (key_id, sec) DO UPDATE SET n = rate_buckets.n + 1;
  IF random() < 0.02 THEN
    DELETE FROM rate_buckets WHERE key_id = p_key AND sec <= now_s - 60;
  END IF;
  RETURN true;
END $$;

CREATE TABLE credit_periods (
  account_id   text NOT NULL REFERENCES accounts(id),
  period_start timestamptz NOT NULL,
  period_end   timestamptz NOT NULL,
  granted      integer NOT NULL DEFAULT 0,
  used         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, period_start)
);

CREATE TABLE credit_ledger (
  id           bigserial PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts(id),
  period_start timestamptz NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('grant', 'charge', 'adjustment')),
  amount       integer NOT NULL,
  request_id   text,
  note         text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_account ON credit_ledger (account_id, id DESC);
CREATE UNIQUE INDEX credit_ledger_one_grant ON credit_ledger (account_id, period_start) WHERE kind = 'grant';
CREATE UNIQUE INDEX credit_ledger_one_charge ON credit_ledger (request_id) WHERE kind = 'charge';

CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only';
END $$;
CREATE TRIGGER credit_ledger_no_change BEFORE UPDATE OR DELETE ON credit_ledger
  FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();

-- In-flight metered requests under enforcement: the reserved maximum and the plan concurrency.
CREATE TABLE credit_reservations (
  request_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  amount     integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX credit_reservations_account ON credit_reservations (account_id);

CREATE TABLE idempotency_keys (
  key_id      text NOT NULL REFERENCES api_keys(id),
  scope       text NOT NULL,
  idem_key    text NOT NULL,
  body_hash   text NOT NULL,
  resource_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_id, scope, idem_key)
);

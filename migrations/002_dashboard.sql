-- Browser dashboard: password sign-in, sessions, sign-in throttling.

ALTER TABLE accounts
  ADD COLUMN password_hash        text,
  ADD COLUMN must_change_password boolean NOT NULL DEFAULT false,
  ADD COLUMN password_changed_at  timestamptz;
CREATE INDEX accounts_email_lower ON accounts (lower(email));

-- The cookie carries a random token; only its SHA-256 is stored. A row without account is the
-- pre-sign-in session that binds the sign-in form's CSRF token.
CREATE TABLE dashboard_sessions (
  token_hash   bytea PRIMARY KEY,
  account_id   text REFERENCES accounts(id) ON DELETE CASCADE,
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_account ON dashboard_sessions (account_id);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expires_at);

-- One row per password check; failures in a sliding window limit further attempts per email and per IP.
CREATE TABLE dashboard_sign_in_attempts (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL,
  ip         text NOT NULL,
  outcome    text NOT NULL CHECK (outcome IN ('failure', 'success', 'refused')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_sign_in_attempts_email ON dashboard_sign_in_attempts (email, created_at);
CREATE INDEX dashboard_sign_in_attempts_ip ON dashboard_sign_in_attempts (ip, created_at);

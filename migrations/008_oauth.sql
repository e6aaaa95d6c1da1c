-- OAuth 2.1 authorization server for /mcp: clients, grants (connected apps), codes and tokens.
-- Codes and tokens are stored only as SHA-256 hashes of the random values handed out.

-- A connected app calls through a key row of its own (kind 'oauth', no secret): metering, history,
-- idempotency and usage keep working per key and per account, and history names the app.
ALTER TABLE api_keys
  ADD COLUMN kind text NOT NULL DEFAULT 'api' CHECK (kind IN ('api', 'oauth')),
  ALTER COLUMN key_hash DROP NOT NULL,
  ADD CONSTRAINT api_keys_secret_by_kind CHECK ((kind = 'api') = (key_hash IS NOT NULL));

-- Public client descriptions: a Client ID Metadata Document (client_id is its HTTPS URL, cached
-- here) or a dynamic registration (RFC 7591). Not account data: any account may authorize any client.
CREATE TABLE oauth_clients (
  client_id                  text PRIMARY KEY,
  registration               text NOT NULL CHECK (registration IN ('metadata_document', 'dynamic')),
  client_name                text NOT NULL,
  client_uri                 text,
  redirect_uris              text[] NOT NULL,
  token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
  client_secret_hash         bytea,
  metadata                   jsonb NOT NULL,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  -- metadata documents only: when the cached copy must be fetched again
  refresh_after              timestamptz
);

-- One live grant per account and client: the "connected app" the dashboard lists and revokes.
CREATE TABLE oauth_grants (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  client_id    text NOT NULL REFERENCES oauth_clients(client_id),
  key_id       text NOT NULL REFERENCES api_keys(id),
  scope        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE UNIQUE INDEX oauth_grants_live ON oauth_grants (account_id, client_id) WHERE revoked_at IS NULL;

CREATE TABLE oauth_codes (
  code_hash      bytea PRIMARY KEY,
  grant_id       text NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  account_id     text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  client_id      text NOT NULL,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  resource       text NOT NULL,
  scope          text NOT NULL,
  expires_at     timestamptz NOT NULL,
  -- set at the first exchange; a second exchange revokes what the first one issued
  used_at        timestamptz,
  family_id      text
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

-- Access and refresh tokens. A family is what one authorization code started: refresh rotation
-- stays in it, and replaying a rotated refresh token revokes all of it.
CREATE TABLE oauth_tokens (
  token_hash bytea PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
  family_id  text NOT NULL,
  grant_id   text NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  client_id  text NOT NULL,
  resource   text NOT NULL,
  scope      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- refresh tokens: set when exchanged for the next one
  rotated_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_tokens_family ON oauth_tokens (family_id);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
CREATE INDEX oauth_tokens_expiry ON oauth_tokens (expires_at);

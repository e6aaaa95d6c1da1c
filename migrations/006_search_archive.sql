-- The archive of the compatible search API (search_metadata.json_url / html_url →
-- GET /api/v1/searches/{id}[.html]). Convention of 005: the owner account, the key whose call made it.
-- Nothing is written for a call with zero_retention; rows past expires_at are never read and the
-- hourly purge job deletes them.
CREATE TABLE search_archive (
  id               text PRIMARY KEY,                       -- search_metadata.id (the call's request id)
  account_id       text NOT NULL REFERENCES accounts(id),
  key_id           text NOT NULL REFERENCES api_keys(id),
  engine           text NOT NULL,
  response         json NOT NULL,                          -- json, not jsonb: the answer as sent, key order kept
  raw_page         bytea,                                  -- gzip of the first upstream reply, when retained
  raw_content_type text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL
);
CREATE INDEX search_archive_account ON search_archive (account_id, key_id);
CREATE INDEX search_archive_expiry ON search_archive (expires_at);

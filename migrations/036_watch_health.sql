-- Issue 42: watch health and the daily digest.
-- misses_in_row: schedule periods missed one after another (every attempt failed); after
-- WATCH_FAILING_AFTER of them the watch is failing (failing_since) and a watch.failing event tells
-- it; the next check that succeeds ends that (watch.resumed).
ALTER TABLE watches
  ADD COLUMN misses_in_row integer NOT NULL DEFAULT 0,
  ADD COLUMN failing_since timestamptz;

-- watch.digest: one event per account, digest period and callback URL, about all the account's
-- watches; it follows no watch (watch_id null) and is kept with the account.
ALTER TABLE watch_events
  ALTER COLUMN watch_id DROP NOT NULL,
  ADD COLUMN digest_period bigint,
  ADD CONSTRAINT watch_events_digest_check CHECK ((type = 'watch.digest') = (digest_period IS NOT NULL) AND (watch_id IS NOT NULL OR type = 'watch.digest'));
CREATE UNIQUE INDEX watch_events_digest ON watch_events (account_id, digest_period, coalesce(callback_url, '')) WHERE digest_period IS NOT NULL;
CREATE INDEX watch_events_account_digests ON watch_events (account_id, created_at DESC) WHERE digest_period IS NOT NULL;

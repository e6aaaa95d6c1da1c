-- Issue 42 (defect 8): an event is delivered again when its account asks (API or dashboard), to
-- the watch's callback_url of that moment. A redelivery starts a new round of attempts (the retry
-- schedule from its start); `round` tells a queued attempt of an earlier round from one of this
-- round, so that a late entry of the old round never counts as an attempt of the new one.
ALTER TABLE watch_events
  ADD COLUMN round integer NOT NULL DEFAULT 0,
  ADD COLUMN redelivered_at timestamptz;

-- Issue 36: a watch whose target no longer exists upstream (the caller's property answered 404:
-- the failure table's not_found) pauses with reason 'gone' instead of being retried forever.
ALTER TABLE watches DROP CONSTRAINT watches_paused_reason_check;
ALTER TABLE watches ADD CONSTRAINT watches_paused_reason_check
  CHECK (paused_reason IN ('paused_by_user', 'insufficient_credits', 'gone'));

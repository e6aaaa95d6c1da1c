-- Issue 42: a watch may end (its end date, or the stay it prices has passed: status ended with
-- ended_reason) and pauses by itself when its property is gone (an upstream 404 of the target:
-- paused_reason gone, migration 018). Such a pause is told by a watch.paused event, which follows no
-- check (check_id null). The checks on status and reasons are replaced, whatever they were named.
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conname FROM pg_constraint
    WHERE conrelid = 'watches'::regclass AND contype = 'c'
      AND (pg_get_constraintdef(oid) LIKE '%status%' OR pg_get_constraintdef(oid) LIKE '%paused_reason%')
  LOOP
    EXECUTE format('ALTER TABLE watches DROP CONSTRAINT %I', c.conname);
  END LOOP;
END $$;

ALTER TABLE watches
  ADD COLUMN ends_at timestamptz,
  ADD COLUMN ended_reason text CHECK (ended_reason IN ('end_date', 'stay_passed')),
  ADD CONSTRAINT watches_status_check CHECK (status IN ('active', 'paused', 'ended')),
  ADD CONSTRAINT watches_paused_reason_check CHECK (paused_reason IN ('paused_by_user', 'insufficient_credits', 'gone')),
  ADD CONSTRAINT watches_state_check CHECK ((status = 'paused') = (paused_reason IS NOT NULL) AND (status = 'ended') = (ended_reason IS NOT NULL));

ALTER TABLE watch_events ALTER COLUMN check_id DROP NOT NULL;

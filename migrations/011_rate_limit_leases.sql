-- Rate-limit leases (issue 19): an API process takes the slots of several calls of a key at once
-- and hands them out itself until the second they were counted in ends. Slots it did not hand out
-- go back to that second, so the window counts only calls that ran. Leased slots count in the
-- window like taken ones: every process together never admits more than the limit.
--
-- p_requests: a JSON array, one object per key: {"key", "limit", "want", "return_sec", "return_n"};
-- want: slots wanted (granted as many as the window still has, up to that); return_n: unused slots
-- of an earlier lease given back to their second return_sec.
-- Returns the slots granted per key in the same order, the second they are counted in, and the
-- milliseconds left in it (by this database's clock, so a lease never outlives its second whatever
-- the callers' clocks say).
CREATE FUNCTION rate_limit_lease(p_requests json)
RETURNS TABLE (granted integer[], lease_sec bigint, ms_left double precision)
LANGUAGE plpgsql AS $$
DECLARE
  ts    double precision := extract(epoch FROM clock_timestamp());
  now_s bigint := floor(ts);
  out   integer[] := '{}';
  r     record;
  used  bigint;
  g     integer;
BEGIN
  -- the keys' locks in one global order: two processes' batches never wait on each other in a cycle
  PERFORM pg_advisory_xact_lock(h)
    FROM (SELECT DISTINCT hashtext('rate:' || (e ->> 'key')) AS h FROM json_array_elements(p_requests) e) s ORDER BY h;
  FOR r IN SELECT * FROM json_to_recordset(p_requests) AS x(key text, "limit" integer, want integer, return_sec bigint, return_n integer) LOOP
    IF r.return_n > 0 THEN
      UPDATE rate_buckets b SET n = greatest(0, b.n - r.return_n) WHERE b.key_id = r.key AND b.sec = r.return_sec;
    END IF;
    g := 0;
    IF r.want > 0 THEN
      SELECT coalesce(sum(b.n), 0) INTO used FROM rate_buckets b WHERE b.key_id = r.key AND b.sec > now_s - 60;
      g := least(r.want, greatest(0, r."limit" - used));
      IF g > 0 THEN
        INSERT INTO rate_buckets (key_id, sec, n) VALUES (r.key, now_s, g)
          ON CONFLICT (key_id, sec) DO UPDATE SET n = rate_buckets.n + g;
      END IF;
    END IF;
    out := out || g;
  END LOOP;
  IF random() < 0.02 THEN
    DELETE FROM rate_buckets b WHERE b.key_id IN (SELECT e ->> 'key' FROM json_array_elements(p_requests) e) AND b.sec <= now_s - 60;
  END IF;
  granted := out;
  lease_sec := now_s;
  ms_left := (now_s + 1 - ts) * 1000;
  RETURN NEXT;
END $$;

-- Superseded by the leases: API processes no longer take one slot per call in a batch.
DROP FUNCTION rate_limit_take_many(text[], integer[]);

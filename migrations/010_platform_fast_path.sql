-- The platform's per-call fast path (issue 19).

-- Every API process caches live keys for a second at most; a change to a key or to its account's
-- plan tells them at once, whichever process (API, dashboard, keys CLI) made it.
CREATE FUNCTION api_keys_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_changed();
CREATE TRIGGER accounts_changed AFTER UPDATE OR DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_changed();

-- One statement takes the rate-limit slots of several concurrent calls (group commit). The keys'
-- locks are taken in one global order first, so two processes' batches never wait on each other
-- in a cycle; each call is then admitted in array order exactly as rate_limit_take would.
CREATE FUNCTION rate_limit_take_many(p_keys text[], p_limits integer[]) RETURNS boolean[]
LANGUAGE plpgsql AS $$
DECLARE
  out boolean[] := '{}';
  i   integer;
BEGIN
  PERFORM pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext('rate:' || k) AS h FROM unnest(p_keys) k) s ORDER BY h;
  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    out := out || rate_limit_take(p_keys[i], p_limits[i]);
  END LOOP;
  RETURN out;
END $$;

-- Issue 28: a foreign key is checked row by row: a 90-night calendar's write looked its account up
-- and share-locked it 90 times (~1 ms of a ~5 ms write, bench/RESULTS.md). The same guarantee (no
-- stored rate without its account) is kept by one check per statement instead: every row a
-- statement inserts is matched against accounts in one semi-join over the statement's new rows.
-- An upsert's update never changes account_id, so inserts are all there is to check. Accounts are
-- never deleted (nothing in the service deletes one), which the per-row key's lock guarded against.
ALTER TABLE stored_rates DROP CONSTRAINT stored_rates_account_id_fkey;

CREATE FUNCTION stored_rates_have_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT account_id FROM new_rows) n
             WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = n.account_id)) THEN
    RAISE EXCEPTION 'stored rate without its account' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER stored_rates_have_accounts AFTER INSERT ON stored_rates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stored_rates_have_accounts();

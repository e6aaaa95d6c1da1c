-- Issue 28: a foreign key is checked row by row: a 90-night calendar's write looked its account up
-- and share-locked it 90 times (~1 ms of a ~5 ms write, bench/RESULTS.md). Every stored rate is
-- written by src/platform/stored-rates.ts only (the table-owners test holds every other module to
-- it), for the account of the authenticated key or job item that asked, which exists (api_keys,
-- calendar_job_items and watches reference accounts); accounts are never deleted. The account
-- column stays NOT NULL and every read is scoped to it. The run table keeps its key (one row a write).
ALTER TABLE stored_rates DROP CONSTRAINT stored_rates_account_id_fkey;

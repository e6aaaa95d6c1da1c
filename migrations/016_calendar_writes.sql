-- Issue 28: the stored-rates write is on the path of every calendar answer and batch item (and a
-- batch item writes its result too); what PostgreSQL does per night written is paid by every call.
--
-- 1. Observation ids are unique by construction (a digest that includes the collection's random
--    nonce), nothing looks a row up by one, and a collection replayed after a crash is recognised
--    by its scrape_runs row: the unique index only cost ~0.5 ms per 90-night calendar.
ALTER TABLE stored_rates DROP CONSTRAINT stored_rates_observation_id_key;

-- 2. A stored rate is written whole and read whole (GET /v1/rates); no statement looks inside it.
--    As json it is checked and kept as sent instead of being parsed into a jsonb tree on every
--    write (~1 ms of a 90-night calendar's write) and printed back from one on every read.
--    Rewrites the table once.
ALTER TABLE stored_rates ALTER COLUMN rate TYPE json USING rate::json;

-- 3. The same for a batch item's result (its calendar, ~25 KB for 31 nights): written whole when
--    the item succeeds, read whole by GET /v1/jobs and the job's artifact, never queried inside.
ALTER TABLE calendar_job_items ALTER COLUMN result TYPE json USING result::json;

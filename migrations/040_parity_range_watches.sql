-- Issue 42: a watch may re-run a parity range (target operation parity_range). Its check submits
-- the range (POST /v1/compsets/{compset_id}/parity, as that route does) and is settled when the
-- range's batch finishes: the worker that finishes it reads the disparities, compares them with the
-- previous settled check's and tells the new ones, in the batch's final transaction.
ALTER TABLE watches DROP CONSTRAINT watches_operation_check;
ALTER TABLE watches ADD CONSTRAINT watches_operation_check CHECK (operation IN ('calendar', 'offers', 'compare', 'parity_range'));

-- The call that submitted the range: its request id (a watch check's id, for the settling).
ALTER TABLE compset_parity_ranges ADD COLUMN request_id text;
CREATE INDEX compset_parity_ranges_request ON compset_parity_ranges (request_id) WHERE request_id IS NOT NULL;

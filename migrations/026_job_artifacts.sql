-- Issue 40: a finished batch's archive lives in the database, so any API process can serve it
-- (GET /v1/jobs/{job_id}/artifact), whichever worker finished the job; it was a file under the
-- finishing worker's DATA_DIR. Written in the transaction that finishes the job: a job is never
-- finished without its archive. The bytes are the gzip of the archive's JSON, as served; sha256
-- is theirs (calendar_jobs.artifact_sha256). Jobs finished before this keep their file:// URI.
CREATE TABLE job_artifacts (
  job_id     text PRIMARY KEY REFERENCES calendar_jobs(id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts(id),
  bytes      bytea NOT NULL,
  sha256     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- already compressed: not worth TOAST's own compression pass
ALTER TABLE job_artifacts ALTER COLUMN bytes SET STORAGE EXTERNAL;

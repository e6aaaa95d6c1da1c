import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Db } from '../db/client.js';

/** Where a job's archive is served (GET /v1/jobs/{job_id}/artifact), relative to the service's URL. */
function artifactPath(jobId: string): string {
  return `/v1/jobs/${jobId}/artifact`;
}

/**
 * A finished job's results as one gzip JSON archive in the database (job_artifacts, owned here),
 * written in `tx`, the transaction that finishes the job, so any process can serve it and no job
 * is finished without it. Writing the same job twice (a worker restarted mid-finish) produces the
 * same bytes and the same hash.
 */
export async function writeJobArtifact(tx: Db, accountId: string, jobId: string, content: unknown): Promise<{ uri: string; sha256: string }> {
  const bytes = gzipSync(Buffer.from(JSON.stringify(content)), { level: 6 });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await tx`INSERT INTO job_artifacts (job_id, account_id, bytes, sha256) VALUES (${jobId}, ${accountId}, ${bytes}, ${sha256})
    ON CONFLICT (job_id) DO UPDATE SET bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256`;
  return { uri: artifactPath(jobId), sha256 };
}

/** The archive of a job of this account, or null (no such job of this account, or not finished). */
export async function readJobArtifact(db: Db, accountId: string, jobId: string): Promise<{ bytes: Buffer; sha256: string } | null> {
  const [row] = await db<{ bytes: Buffer; sha256: string }[]>`SELECT bytes, sha256 FROM job_artifacts WHERE job_id = ${jobId} AND account_id = ${accountId}`;
  return row ?? null;
}

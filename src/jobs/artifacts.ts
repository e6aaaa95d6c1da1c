import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * A finished job's results as one gzip JSON archive under DATA_DIR/artifacts/<account>, the
 * job's owner. Writing the same job twice (a worker restarted mid-finish) produces the same
 * bytes and the same hash.
 */
export async function writeJobArtifact(dataDir: string, accountId: string, jobId: string, content: unknown): Promise<{ uri: string; sha256: string }> {
  const dir = path.join(dataDir, 'artifacts', accountId);
  await fs.mkdir(dir, { recursive: true });
  const bytes = gzipSync(Buffer.from(JSON.stringify(content)), { level: 6 });
  const file = path.join(dir, `${jobId}.json.gz`);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, file);
  return { uri: `file://${file}`, sha256: createHash('sha256').update(bytes).digest('hex') };
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { noteContractChanged, notePathEvent } from '../ops/outcomes.js';
import type { DriftRule } from '../config/drift-rules.js';
import { driftVerdict, type DriftContext } from './drift.js';
import { UNREADABLE, UpstreamContractChanged, UpstreamFailed } from '../domain/errors.js';
import { TRUNCATED } from './decode.js';
import { inLargeReplySlot, LARGE_REPLY_BYTES } from './parse-slots.js';
import { looksTruncated, ofExpectedKind, type UpstreamResponse } from './response.js';
import type { UpstreamSession } from './session.js';

const gzip = promisify(zlib.gzip);

/** Raw replies kept per source; older ones are deleted so the directory stays bounded. */
export const DIAGNOSTICS_KEEP = 200;
const SUFFIX = '.html.gz';

export interface RawReplyMeta {
  url?: string;
  status?: number;
  reason?: string;
  [key: string]: unknown;
}

function diagnosticsDir(dataDir: string, source: string): string {
  return path.join(dataDir, 'diagnostics', source.replace(/[^a-z0-9_-]/gi, '_'));
}

/**
 * Writes `<dataDir>/diagnostics/<source>/<timestamp>-<id>.html.gz` (the raw reply, gzip) and a
 * `.meta.json` beside it, then prunes to the newest DIAGNOSTICS_KEEP. Returns the .html.gz path.
 */
export async function keepRawReply(dataDir: string, source: string, body: Buffer | string, meta: RawReplyMeta): Promise<string> {
  const dir = diagnosticsDir(dataDir, source);
  await fs.mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
  const base = `${stamp}-${randomBytes(4).toString('hex')}`;
  const file = path.join(dir, base + SUFFIX);
  await fs.writeFile(file, await gzip(typeof body === 'string' ? Buffer.from(body) : body));
  await fs.writeFile(path.join(dir, `${base}.meta.json`), JSON.stringify({ source, kept_at: new Date().toISOString(), ...meta }, null, 2));
  await prune(dir);
  return file;
}

/**
 * keepRawReply for a page fetched outside the upstream client (the rendered job search): kept
 * with the operation's owner, and not at all when the operation keeps nothing (zero_retention).
 */
export async function keepSessionReply(
  dataDir: string,
  session: UpstreamSession | undefined,
  source: string,
  body: Buffer | string,
  meta: RawReplyMeta,
): Promise<void> {
  if (session && !session.keep) return;
  await keepRawReply(dataDir, source, body, { ...meta, ...session?.keep }).catch(() => undefined);
}

async function prune(dir: string): Promise<void> {
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith(SUFFIX)).sort();
  const excess = names.slice(0, Math.max(0, names.length - DIAGNOSTICS_KEEP));
  for (const name of excess) {
    const base = name.slice(0, -SUFFIX.length);
    await fs.rm(path.join(dir, name), { force: true });
    await fs.rm(path.join(dir, `${base}.meta.json`), { force: true });
  }
}

/** What a parser throws when a reply is not what it was written for (a field of another type, a broken link or escape). */
const PARSER_FAULTS = [TypeError, RangeError, SyntaxError, URIError];

/** A parser's fault over a reply as the contract change it stands for; anything else unchanged. */
export function asContractChange(source: string, thrown: unknown): unknown {
  return PARSER_FAULTS.some((c) => thrown instanceof c) ? new UpstreamContractChanged(source, `unreadable reply (${(thrown as Error).name})`) : thrown;
}

/** A source's drift rule for one reply, and what the request asked (drift.ts). */
export interface DriftCheck extends DriftContext {
  rule: DriftRule;
}

/** A parsed answer the source's drift rule rejects (its items all lack what the source always states). */
class Drift extends UpstreamContractChanged {}

/**
 * Runs a parser over a reply; when it throws UpstreamContractChanged the raw reply is kept
 * under the response's dataDir (if any, with its owner) and the error rethrown unchanged. Only a
 * complete reply of the expected kind and the wrong shape is a contract change: a reply that was
 * cut, or is not of the expected kind (garbage), is UpstreamFailed (the failure table's `unusable`).
 * A parser that trips over the reply (reads a property of null, builds a URL from a broken link)
 * met a shape it does not know: that is a contract change too, never a 500. With `drift`, a parsed
 * answer whose items all lack what the source always states is one as well (a drift verdict).
 */
export async function withContractGuard<T>(
  source: string,
  response: UpstreamResponse,
  fn: (response: UpstreamResponse) => T | Promise<T>,
  drift?: DriftCheck,
): Promise<T> {
  try {
    const parsed = response.body.length >= LARGE_REPLY_BYTES ? await inLargeReplySlot(() => fn(response)) : await fn(response);
    const verdict = drift ? driftVerdict(drift.rule, parsed, drift, () => response.text()) : null;
    if (verdict) throw new Drift(source, `drift: ${verdict}`);
    return parsed;
  } catch (thrown) {
    const err = asContractChange(source, thrown);
    if (!(err instanceof UpstreamContractChanged)) throw err;
    if (looksTruncated(response)) throw new UpstreamFailed(TRUNCATED);
    // only a reply of the expected kind is a changed contract; garbage is an unusable reply
    if (!ofExpectedKind(response)) throw new UpstreamFailed(UNREADABLE, 'unusable');
    noteContractChanged(response);
    if (err instanceof Drift) notePathEvent(source, 'drift');
    if (response.dataDir) {
      await keepRawReply(response.dataDir, source, response.body, {
        url: response.url,
        status: response.status,
        reason: 'contract_changed',
        detail: err.message,
        ...response.owner,
      }).catch(() => undefined);
    }
    throw err;
  }
}

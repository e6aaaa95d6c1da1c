import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decompress } from 'fzstd';

/** Recorded upstream payloads live in ../shared/fixtures and are never copied into the project. */
export const SHARED_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures');

export function fixturePath(rel: string): string {
  return path.join(SHARED_FIXTURES, rel);
}

export function hasFixture(rel: string): boolean {
  return fs.existsSync(fixturePath(rel));
}

/** Reads a shared fixture as text; `.zst` files are decompressed. */
export function readFixture(rel: string): string {
  const buf = fs.readFileSync(fixturePath(rel));
  return rel.endsWith('.zst') ? Buffer.from(decompress(buf)).toString('utf8') : buf.toString('utf8');
}

export function readFixtureJson<T = any>(rel: string): T {
  return JSON.parse(readFixture(rel)) as T;
}

/**
 * Label for a describe block over fixtures: when they are absent the block is skipped
 * and says so in the report, never silently passes.
 */
export function fixtureSuite(name: string, ...rels: string[]): { title: string; missing: boolean } {
  const missing = rels.filter((r) => !hasFixture(r));
  return {
    title: missing.length ? `${name} [SKIPPED: fixture absent: ${missing.join(', ')}]` : name,
    missing: missing.length > 0,
  };
}

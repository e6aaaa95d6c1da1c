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
 * Why the recorded fixtures cannot be read, or null when they can. The suite's global setup fails
 * the whole run with this message: a clone without ../shared must not pass green with most of its
 * parser and route tests skipped.
 */
export function sharedFixturesProblem(): string | null {
  let entries: string[];
  try {
    entries = fs.readdirSync(SHARED_FIXTURES);
  } catch {
    entries = [];
  }
  if (entries.length > 0) return null;
  return (
    `The recorded upstream fixtures are missing: ${SHARED_FIXTURES} is absent or empty. ` +
    'The tests read them in place from ../shared/fixtures (a folder beside this repository, never copied into it); ' +
    'put the shared folder next to the repository (as CI does) and run the tests again.'
  );
}

/**
 * Title of a describe block over fixtures. A fixture that is absent fails the test file with its
 * name (never a silent skip).
 */
export function fixtureSuite(name: string, ...rels: string[]): { title: string } {
  const missing = rels.filter((r) => !hasFixture(r));
  if (missing.length) throw new Error(`${name}: recorded fixture absent from ${SHARED_FIXTURES}: ${missing.join(', ')}`);
  return { title: name };
}

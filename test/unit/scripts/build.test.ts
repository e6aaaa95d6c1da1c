/**
 * The compiled build (dist/, made by scripts/build.mjs; the test run's global setup runs it) is
 * what `npm start`, `npm run worker` and the stdio server run: it must hold every module and every
 * file a module reads next to itself (migrations, openapi-examples.json …), and the MCP tool
 * listing the stdio server takes from it must be the one the sources build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import { buildToolTable } from '../../../src/doors/mcp/mcp.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const DIST = path.join(REPO, 'dist');

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('dist/', () => {
  it('holds a module for every source module and a copy of every other file, and nothing else', () => {
    for (const tree of ['src', 'tools', 'migrations']) {
      const sources = files(path.join(REPO, tree));
      const expected = sources.map((f) => (f.endsWith('.ts') ? f.replace(/\.ts$/, '.js') : f)).sort();
      expect(files(path.join(DIST, tree)).sort(), tree).toEqual(expected);
      for (const f of sources.filter((s) => !s.endsWith('.ts'))) {
        expect(fs.readFileSync(path.join(DIST, tree, f)).equals(fs.readFileSync(path.join(REPO, tree, f))), `${tree}/${f}`).toBe(true);
      }
    }
  });

  it('finds what its modules read relative to themselves, as the sources do', async () => {
    const { RECORDED_EXAMPLES_FILE } = await import(path.join(DIST, 'src/doors/rest/openapi-examples.js'));
    expect(fs.existsSync(RECORDED_EXAMPLES_FILE)).toBe(true);
    expect(path.relative(DIST, RECORDED_EXAMPLES_FILE)).toBe('src/doors/rest/openapi-examples.json');
    // the migration runner reads ../../migrations from src/db
    expect(fs.readdirSync(path.join(DIST, 'src/db/../../migrations')).sort()).toEqual(fs.readdirSync(path.join(REPO, 'migrations')).sort());
  });

  it('carries the MCP tool listing the sources build, which the stdio server serves', () => {
    const listing = JSON.parse(fs.readFileSync(path.join(DIST, 'mcp-tool-listing.json'), 'utf8'));
    expect(listing).toEqual(JSON.parse(JSON.stringify(buildToolTable(TOOLS).listing)));
  });
});

/**
 * The README's first calls run as written: its shell blocks under "A first call", in one bash
 * session, against a service started as `npm start` starts it (the build, its own database, the
 * first key it prints). The doc's placeholders are the only thing filled in: the key `npm start`
 * printed for `sk_...`, and the service's port for 8080. Each answer is checked against the shape
 * the README shows beside it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');

/** The ```sh blocks of one section of a markdown file (from its heading to the next of its level). */
function shellBlocks(file: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const level = heading.split(' ')[0];
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  return [...(end < 0 ? rest : rest.slice(0, end)).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

let db: TestDatabase;
let svc: Spawned;

beforeAll(async () => {
  db = await createTestDatabase();
  svc = await spawnServer({ DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, 180_000);
});
afterAll(async () => {
  svc?.child.kill('SIGTERM');
  await svc?.exited;
  await db?.drop();
});

describe('README: a first call, as written', () => {
  it('its REST and MCP blocks answer as the README shows', async () => {
    const blocks = shellBlocks('README.md', '## A first call');
    expect(blocks).toHaveLength(2);
    expect(svc.firstKey).toMatch(/^sk_/);
    const port = new URL(svc.url).port;
    const script = blocks
      .map((b, i) => `echo "--- block ${i}"\n${b}echo`)
      .join('\n')
      .replaceAll('sk_...', svc.firstKey!)
      .replaceAll('localhost:8080', `localhost:${port}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: REPO, timeout: 120_000 });
    const [, rest, mcp] = stdout.split(/^--- block \d+$/m);
    const billing = JSON.parse(rest.trim());
    expect(billing).toMatchObject({ plan: { code: 'free', name: 'Free' }, credits: { granted: 1000 }, mode: 'shadow' });
    const data = /^data: (.*)$/m.exec(mcp)?.[1];
    const answer = JSON.parse(data!);
    expect(answer.result.content[0].text).toMatch(/^1000 of 1000 credits left on the Free plan until \d{4}-\d{2}-\d{2}\.$/);
    expect(answer.result.structuredContent.account_id).toBe(billing.account_id);
  }, 300_000);
});

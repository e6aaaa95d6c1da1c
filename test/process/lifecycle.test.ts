import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import net from 'node:net';
import { KEY_CACHE_TTL_MS } from '../../src/platform/key-cache.js';
import { refusal } from '../helpers/key-refusal.js';
import { runEntry, spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The service as `npm start` runs it: no DATABASE_URL, so it starts its own embedded
 * PostgreSQL in DATA_DIR; keys and data survive restarts, and a SIGKILLed run leaves
 * nothing that stops the next start.
 */
let dataDir: string;
let env: Record<string, string | undefined>;
let server: Spawned | null = null;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-life-'));
  env = {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

const billing = (url: string, key: string) => fetch(`${url}/v1/billing`, { headers: { 'x-api-key': key } });

describe('embedded database lifecycle', () => {
  let firstKey: string;
  let cliKey: string;

  it('first start initialises the database and prints the URL and a first key once', async () => {
    server = await spawnServer(env);
    expect(server.firstKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    firstKey = server.firstKey!;
    expect((await billing(server.url, firstKey)).status).toBe(200);
    await expect(fs.access(path.join(dataDir, 'pg', 'PG_VERSION'))).resolves.toBeUndefined();
  });

  it('the keys CLI works while the server runs, on the same data directory', async () => {
    const created = await runEntry('src/cli/keys.ts', ['create', '--name', 'cli-key', '--rate-limit', '30'], env);
    expect(created.code).toBe(0);
    cliKey = created.stdout.trim().split('\n').at(-1)!;
    expect(cliKey).toMatch(/^sk_[A-Za-z0-9_-]{32}$/);
    expect((await billing(server!.url, cliKey)).status).toBe(200);
    const list = await runEntry('src/cli/keys.ts', ['list'], env);
    expect(list.stdout).toContain('cli-key');
    expect(list.stdout).toContain('30/min');
    expect(list.stdout).not.toContain(cliKey);
  });

  it('SIGTERM shuts down cleanly; keys survive the restart and no second first key is made', async () => {
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = await spawnServer(env);
    expect(server.firstKey).toBeNull();
    expect((await billing(server.url, firstKey)).status).toBe(200);
    expect((await billing(server.url, cliKey)).status).toBe(200);
  });

  it('after SIGKILL (orphaned postmaster) the next start is clean', async () => {
    const pid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    server!.child.kill('SIGKILL');
    await server!.exited;
    expect(() => process.kill(pid, 0)).not.toThrow(); // the postmaster outlived its server
    server = await spawnServer(env);
    const newPid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(newPid).not.toBe(pid);
    expect((await billing(server.url, firstKey)).status).toBe(200);
  });

  it('keys rotate and revoke from the CLI (another process), refused by the server within its bound (1 s)', async () => {
    const ask = (key: string) => async () => (await billing(server!.url, key)).status;
    const rotated = await runEntry('src/cli/keys.ts', ['rotate', '--name', 'cli-key'], env);
    expect(rotated.code).toBe(0);
    const fresh = rotated.stdout.trim().split('\n').at(-1)!;
    expect((await refusal(ask(cliKey), KEY_CACHE_TTL_MS)).acceptedAfterBound).toBe(0);
    expect((await billing(server!.url, fresh)).status).toBe(200);
    const revoked = await runEntry('src/cli/keys.ts', ['revoke', '--name', 'cli-key'], env);
    expect(revoked.code).toBe(0);
    expect((await refusal(ask(fresh), KEY_CACHE_TTL_MS)).acceptedAfterBound).toBe(0);
    const bad = await runEntry('src/cli/keys.ts', ['create'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--name is required');
  });

  it('Ctrl-C on `npm start` (SIGINT to its process group) stops it cleanly, without an error-level log', async () => {
    server!.child.kill('SIGTERM');
    await server!.exited;
    server = await spawnServer({ ...env, LOG_LEVEL: 'info' }, undefined, { npmStart: true });
    expect((await billing(server.url, firstKey)).status).toBe(200);
    const pid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    process.kill(-server.child.pid!, 'SIGINT');
    await server.exited;
    const logs = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg?: string });
    expect(logs.find((l) => l.msg === 'shutting down')).toBeDefined();
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
    // the embedded database stopped after the service, not with it
    expect(() => process.kill(pid, 0)).toThrow();
    server = null;
  });

  it('a busy port fails at once, naming the port and the fix, before any database is started', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const fresh = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-busy-'));
    try {
      const run = await runEntry('src/main.ts', [], { ...env, DATA_DIR: fresh, PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`failed to start: port ${port} on 127.0.0.1 (PORT) is already in use`);
      expect(run.stderr).toContain(`PORT=${port + 1} npm start`);
      // refused before the embedded cluster: nothing was made in the data folder
      await expect(fs.access(path.join(fresh, 'pg'))).rejects.toThrow();
    } finally {
      taken.close();
      await fs.rm(fresh, { recursive: true, force: true });
    }
  });

  it('a second start on the running data folder connects to the running cluster and says so; it runs the cluster once the first ends', async () => {
    const first = await spawnServer(env);
    const second = await spawnServer(env);
    try {
      expect(second.output()).toContain(`run by process ${first.child.pid} (started first on this data folder): connected to it`);
      expect((await billing(second.url, firstKey)).status).toBe(200);
      const owner = JSON.parse(await fs.readFile(path.join(dataDir, 'pg.owner'), 'utf8')) as { pid: number };
      expect(owner.pid).toBe(first.child.pid);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      // the second takes the lock and starts the cluster again: it answers on, after a short outage
      await waitFor(
        async () => (JSON.parse(await fs.readFile(path.join(dataDir, 'pg.owner'), 'utf8').catch(() => '{}')) as { pid?: number }).pid === second.child.pid,
        {
          what: 'the second start to take the cluster over',
        },
      );
      await waitFor(async () => (await billing(second.url, firstKey)).status === 200, { what: 'the second start to answer again' });
      expect(second.output()).toContain('this process runs it now');
    } finally {
      for (const s of [first, second]) if (s.child.exitCode === null) s.child.kill('SIGTERM');
      await Promise.all([first.exited, second.exited]);
    }
    await expect(fs.access(path.join(dataDir, 'pg.owner'))).rejects.toThrow();
  });
});

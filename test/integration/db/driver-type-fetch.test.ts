import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runEntry } from '../../helpers/spawn-service.js';

/**
 * The database closing a brand-new connection while postgres.js reads its type catalog (what a
 * stopping PostgreSQL does to the pool's reconnections): the driver drops that promise
 * (porsager/postgres#1192), so its rejection reaches the process guard. The guard counts it as
 * the database going away, never as an unhandled rejection (a bug). The driver also loses the
 * transaction's reservation then: it fails after its bound as the database unavailable, and the
 * transaction tried again gets a connection and answers.
 */
let proxy: net.Server;
let proxyUrl: string;

beforeAll(async () => {
  const target = new URL(inject('adminDatabaseUrl'));
  const [host, port] = [target.hostname, Number(target.port)];
  let connections = 0;
  // a TCP relay in front of the real PostgreSQL: the first connection is cut the moment the driver sends its type query
  proxy = net.createServer((client) => {
    const first = connections++ === 0;
    const server = net.connect(port, host);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    server.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (first && chunk.includes('pg_catalog.pg_type')) {
        client.destroy();
        server.destroy();
        return;
      }
      server.write(chunk);
    });
    client.on('end', () => server.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  target.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  proxyUrl = target.toString();
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('a connection closed while the driver reads its type catalog', () => {
  it('is counted as the database going away, not as an unhandled rejection; the lost reservation fails in time and the retried transaction answers', async () => {
    const run = await runEntry('test/helpers/type-fetch-probe.ts', [], { PROBE_DATABASE_URL: proxyUrl, LOG_LEVEL: 'info' });
    const out = `${run.stdout}${run.stderr}`;
    expect(run.code, out).toBe(0);
    const lines = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      lines.filter((l) => 'fault' in l).map((l) => l.fault),
      out,
    ).toEqual(['driver_type_fetch']);
    expect(out).not.toMatch(/unhandled promise rejection/);
    expect(out).toMatch(/closed while the driver read its type catalog/);
    expect(
      lines.filter((l) => 'attempt' in l),
      out,
    ).toEqual([{ attempt: 0, failed: 'CONNECT_TIMEOUT: no database connection within 3 s' }]);
    expect(lines.at(-1), out).toEqual({ answered: 1 });
  });
});

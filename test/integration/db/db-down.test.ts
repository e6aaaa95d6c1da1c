import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';

/** The database going away is a 503 `database unavailable: <ErrorClass>` (over MCP a JSON-RPC error), never a 500, and the service recovers. */
let svc: TestService;
let key: string;
let admin: postgres.Sql;
let dbName: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.key()).key;
  admin = postgres(inject('adminDatabaseUrl'), { max: 1, onnotice: () => undefined });
  dbName = new URL(svc.deps.config.DATABASE_URL!).pathname.slice(1);
});
afterAll(async () => {
  await admin?.unsafe(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => undefined);
  await svc?.close();
  await admin?.end();
});

describe('database unavailable', () => {
  it('answers 503 while the database refuses connections, and recovers after', async () => {
    // a key this process has not looked up yet: a key used within the last second is served from
    // the process's key cache, and a tools/list (which writes nothing) would still answer
    const fresh = (await svc.key()).key;
    expect((await svc.call('/v1/billing', { key })).status).toBe(200);
    await admin.unsafe(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    await admin.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}' AND pid <> pg_backend_pid()`);
    const down = await svc.call('/v1/billing', { key });
    expect(down.status).toBe(503);
    expect(((await down.json()) as any).detail).toMatch(/^database unavailable: \w+/);
    expect(down.headers.get('x-request-id')).toMatch(/^req_/);
    const health = await svc.call('/healthz');
    expect(health.status).toBe(503);
    expect(((await health.json()) as any).database).toMatch(/^down/);
    const mcp = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': fresh, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(503);
    // over MCP a JSON-RPC error for the request's id, never the REST {"detail"} body
    const reply = (await mcp.json()) as { error: { message: string } };
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: expect.stringMatching(/^Service unavailable: database unavailable: \w+/), data: { status: 503 } },
    });
    expect(reply.error.message.length).toBeLessThan(200);
    expect(reply).not.toHaveProperty('detail');

    await admin.unsafe(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    await waitFor(async () => (await svc.call('/v1/billing', { key })).status === 200, { what: 'recovery' });
  });
});

import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';

const run = promisify(execFile);
// Inside the project so that the client resolves openapi-fetch from its node_modules.
const DIR = path.resolve('test-artifacts/typed-client');
const bin = (name: string) => path.resolve('node_modules/.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' };

/** A client as a developer writes one: openapi-fetch typed by the generated paths. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function run(baseUrl: string, key: string) {
  const api = createClient<paths>({ baseUrl, headers: { 'x-api-key': key } });
  const plans = await api.GET('/v1/billing/plans');
  const usage = await api.GET('/v1/usage', { params: { query: { period: '7d' } } });
  const requestId = plans.response.headers.get('x-request-id') ?? '';
  const record = await api.GET('/v1/requests/{request_id}', { params: { path: { request_id: requestId } } });
  const planCodes: string[] = plans.data?.plans.map((p) => p.code) ?? [];
  const requests: number | undefined = usage.data?.totals.requests;
  const path: string | undefined = record.data?.path;
  const missing: string | undefined = typeof record.error?.detail === 'string' ? record.error.detail : undefined;
  return { planCodes, requests, path, missing, statuses: [plans.response.status, usage.response.status, record.response.status] };
}
`;

/** Calls the typed client must refuse at compile time: the types are really the API's. */
const WRONG = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';
const api = createClient<paths>({ baseUrl: '' });
export const a = api.GET('/v1/usage', { params: { query: { period: '1y' } } });
export const b = api.POST('/v1/offers', { body: { token: 12 } });
export const c = api.GET('/v1/no-such-route');
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    skipLibCheck: true,
  },
};

async function tsc(files: string[]): Promise<string> {
  writeFileSync(path.join(DIR, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, files }));
  try {
    await run(bin('tsc'), ['-p', path.join(DIR, 'tsconfig.json')], { env });
    return '';
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

let svc: TestService;

describe('a typed client generated from /openapi.json', () => {
  // the generator's CLI is a process of its own: slow to start on a loaded machine
  beforeAll(async () => {
    svc = await startTestService();
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path.join(DIR, 'package.json'), '{"type":"module"}');
    // the generator's own CLI, reading the document from the running service
    await run(bin('openapi-typescript'), [`${svc.url}/openapi.json`, '--output', path.join(DIR, 'schema.d.ts')], { env });
    writeFileSync(path.join(DIR, 'client.ts'), CLIENT);
    writeFileSync(path.join(DIR, 'wrong.ts'), WRONG);
  }, 240_000);
  afterAll(() => svc?.close());

  it('compiles under strict TypeScript, and refuses calls the API does not accept', async () => {
    expect(await tsc(['client.ts'])).toBe('');
    const errors = await tsc(['wrong.ts']);
    expect(errors).toMatch(/wrong\.ts\(4,.*'"1y"'/);
    expect(errors).toMatch(/wrong\.ts\(5,.*'number' is not assignable to type 'string'/);
    // an unknown path: openapi-fetch's overloads leave no call signature that fits
    expect(errors).toMatch(/wrong\.ts\(6,\d+\): error/);
    // two whole tsc runs: a minute and more on a loaded 2-core machine
  }, 240_000);

  it('calls the routes', async () => {
    const { key } = await svc.key({ plan: 'starter' });
    const client = (await import(pathToFileURL(path.join(DIR, 'client.ts')).href)) as { run(url: string, key: string): Promise<Record<string, unknown>> };
    const out = await client.run(svc.url, key);
    expect(out.statuses).toEqual([200, 200, 200]);
    expect(out.planCodes).toEqual(expect.arrayContaining(['free', 'starter']));
    expect(out.requests).toBe(1);
    expect(out.path).toBe('/v1/billing/plans');
  });
});

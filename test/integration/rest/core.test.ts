import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import { rotateKey, revokeKey } from '../../../src/platform/keys.js';
import { KEY_CACHE_TTL_MS } from '../../../src/platform/key-cache.js';
import { PROBES } from '../../helpers/probe-tools.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({}, { tools: [...TOOLS, ...PROBES] });
  key = (await svc.key()).key;
});
afterAll(() => svc?.close());

const REQ_ID = /^req_[A-Za-z0-9]{24}$/;

describe('authentication', () => {
  it('accepts x-api-key and Bearer', async () => {
    expect((await svc.call('/v1/billing', { key })).status).toBe(200);
    const bearer = await fetch(`${svc.url}/v1/billing`, { headers: { authorization: `Bearer ${key}` } });
    expect(bearer.status).toBe(200);
  });

  it.each([
    ['no credential', {}],
    ['malformed x-api-key', { 'x-api-key': 'nope' }],
    ['unknown x-api-key', { 'x-api-key': `sk_${'a'.repeat(32)}` }],
    ['malformed Bearer', { authorization: 'Bearer' }],
    ['unknown Bearer', { authorization: `Bearer sk_${'b'.repeat(32)}` }],
    ['Basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
  ])('401 for %s', async (_name, headers) => {
    const res = await fetch(`${svc.url}/v1/billing`, { headers: headers as Record<string, string> });
    expect(res.status).toBe(401);
    expect((await res.json()) as any).toEqual({ detail: 'missing or invalid API key' });
    expect(res.headers.get('x-request-id')).toMatch(REQ_ID);
  });

  it('401 for a revoked key and for a rotated-away key; the replacement works at once', async () => {
    const revoked = await svc.key({ name: 'to-revoke' });
    expect((await svc.call('/v1/billing', { key: revoked.key })).status).toBe(200);
    await revokeKey(svc.deps.sql, 'to-revoke');
    // refused once the change notification reaches the key cache (bounded by its 1 s TTL)
    await waitFor(async () => (await svc.call('/v1/billing', { key: revoked.key })).status === 401, {
      timeoutMs: KEY_CACHE_TTL_MS * 2,
      what: 'the revoked key refused',
    });

    const old = await svc.key({ name: 'to-rotate', rateLimit: 77 });
    const fresh = await rotateKey(svc.deps.sql, 'to-rotate');
    expect(fresh!.rate_limit_per_min).toBe(77);
    expect(fresh!.key).not.toBe(old.key);
    await waitFor(async () => (await svc.call('/v1/billing', { key: old.key })).status === 401, {
      timeoutMs: KEY_CACHE_TTL_MS * 2,
      what: 'the rotated-away key refused',
    });
    const usage = await svc.call('/v1/usage', { key: fresh!.key });
    expect(usage.status).toBe(200);
    expect(((await usage.json()) as any).key).toMatchObject({ name: 'to-rotate', rate_limit_per_min: 77 });
  });

  it('api_key in the query only on GET routes of the compatible family', async () => {
    const ok = await fetch(`${svc.url}/api/v1/test-search?q=x&api_key=${key}`);
    expect(ok.status).toBe(200);
    expect((await ok.json()) as any).toEqual({ q: 'x' });
    const onV1 = await fetch(`${svc.url}/v1/billing?api_key=${key}`);
    expect(onV1.status).toBe(401);
    const onPost = await fetch(`${svc.url}/v1/test/metered?api_key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(onPost.status).toBe(401);
  });
});

describe('conventions', () => {
  it('x-request-id on 200, 401, 404 and 422 answers', async () => {
    const answers = await Promise.all([
      svc.call('/v1/billing', { key }),
      svc.call('/v1/billing'),
      svc.call('/v1/no-such-route', { key }),
      svc.call('/nowhere'),
      svc.call('/v1/test/metered', { key, body: { nope: 1 } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 404, 422]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(REQ_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('x-request-id of a recorded call is its history record id', async () => {
    const res = await svc.call('/v1/markets', { key });
    const id = res.headers.get('x-request-id')!;
    const record = await svc.call(`/v1/requests/${id}`, { key });
    expect(record.status).toBe(200);
    expect((await record.json()) as any).toMatchObject({ id, method: 'GET', path: '/v1/markets', status: 200, credits: 0 });
  });

  it('422 detail is an array of {type, loc, msg, input} for missing, unknown and out-of-range fields', async () => {
    const res = await svc.call('/v1/test/metered', { key, body: { items: 11, fail: 'yes', extra: true } });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as any;
    expect(detail).toEqual(
      expect.arrayContaining([
        { type: 'extra_forbidden', loc: ['body', 'extra'], msg: expect.any(String), input: true },
        { type: 'less_than_equal', loc: ['body', 'items'], msg: expect.any(String), input: 11 },
        { type: 'bool_type', loc: ['body', 'fail'], msg: expect.any(String), input: 'yes' },
      ]),
    );
    const missing = await svc.call('/v1/requests/', { key });
    expect(missing.status).toBe(404);
  });

  it('a missing required field is type missing (400 with error beside detail on the compatible /api family)', async () => {
    const res = await svc.call('/api/v1/test-search', { key });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Missing required parameter q: Field required',
      detail: [{ type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null }],
    });
  });

  it('malformed JSON and a non-object body are 422, never 500', async () => {
    const bad = await svc.call('/v1/test/metered', { key, body: '{"items": ' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
    const arr = await svc.call('/v1/test/metered', { key, body: '[1,2]' });
    expect(arr.status).toBe(422);
    const str = await svc.call('/v1/test/metered', { key, body: '"x"' });
    expect(str.status).toBe(422);
  });

  it('a handler bug is a 500 with a generic detail and no stack', async () => {
    const res = await svc.call('/v1/test/fault', { key, body: {} });
    expect(res.status).toBe(500);
    expect((await res.json()) as any).toEqual({ detail: 'internal error' });
  });

  it('healthz reports database and queue without a key', async () => {
    const res = await svc.call('/healthz');
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toEqual({ status: 'ok', database: 'up', queue: 'up' });
  });
});

describe('free tools', () => {
  it('billing plans: catalogue, costs generated from the registry, mode', async () => {
    const res = await svc.call('/v1/billing/plans', { key });
    const body = (await res.json()) as any;
    expect(body.plans.map((p: { code: string }) => p.code)).toEqual(['free', 'starter', 'growth', 'scale', 'enterprise']);
    expect(body.plans.find((p: { code: string }) => p.code === 'growth').concurrency).toBe(40);
    expect(body.mode).toBe('shadow');
    expect(body.costs).toContainEqual({ method: 'POST', path: '/v1/test/metered', credits: 3, note: 'plus 1 per item' });
    expect(body.free).toContain('GET /v1/billing');
    expect(res.headers.get('x-credits-charged')).toBeNull();
  });

  it('markets: the 18 pricing markets', async () => {
    const body = (await (await svc.call('/v1/markets', { key })).json()) as any;
    expect(body.total).toBe(18);
    expect(body.markets.map((m: { code: string }) => m.code)).toEqual([
      'AG',
      'AT',
      'AU',
      'BE',
      'BZ',
      'CA',
      'CH',
      'DE',
      'ES',
      'FR',
      'GB',
      'IE',
      'IT',
      'MX',
      'NL',
      'NZ',
      'PT',
      'US',
    ]);
    expect(body.markets.find((m: { code: string }) => m.code === 'GB')).toMatchObject({ currency: 'GBP', rates_include_tax: true });
    expect(body.markets.find((m: { code: string }) => m.code === 'US')).toMatchObject({ currency: 'USD', rates_include_tax: false });
  });

  it('billing of a key without a billing account is 404', async () => {
    const lone = await svc.key({ plan: null });
    const res = await svc.call('/v1/billing', { key: lone.key });
    expect(res.status).toBe(404);
    expect((await res.json()) as any).toEqual({ detail: 'key not linked to a billing account' });
  });
});

describe('OpenAPI and docs', () => {
  it('/openapi.json is a valid OpenAPI 3.1 document covering every route', async () => {
    const doc = (await (await svc.call('/openapi.json')).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    await SwaggerParser.validate(structuredClone(doc));
    for (const tool of [...TOOLS, ...PROBES]) {
      expect(doc.paths[tool.path][tool.method.toLowerCase()].operationId).toBe(tool.name);
    }
    expect(doc.paths['/v1/requests/{request_id}'].get.parameters[0]).toMatchObject({ name: 'request_id', in: 'path', required: true });
  });

  it('/docs is the reference page, its renderer served from our own origin', async () => {
    const res = await svc.call('/docs');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await res.text();
    expect(html).toContain('src="/docs/assets/scalar.js"');
    expect(await (await svc.call('/docs/assets/init.js')).text()).toContain('"url":"/openapi.json"');
    const bundle = await svc.call('/docs/assets/scalar.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
  });
});

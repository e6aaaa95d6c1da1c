import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIASES, hostEnvName } from '../../../src/config/hosts.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * Hostile input on the real routes: a clear 4xx that quotes only a short prefix of what was sent,
 * a row in the request history, and not one upstream call. Every upstream points at a replay
 * server with no routes, which records whatever reaches it.
 */
let svc: TestService;
let replay: ReplayServer;
let key: string;

beforeAll(async () => {
  replay = await startReplayServer([]);
  svc = await startTestService(Object.fromEntries(ALIASES.map((a) => [hostEnvName(a), `${replay.url}/${a}`])));
  key = (await svc.key()).key;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const SEARCH = { q: 'paris', check_in: '2030-01-10', check_out: '2030-01-12' };

async function send(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${svc.url}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: { 'x-api-key': key, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as any, id: res.headers.get('x-request-id')! };
}

/** The call is in the caller's request history with the status it answered. */
async function expectRecorded(id: string, status: number, path: string) {
  const res = await send(`/v1/requests/${id}`);
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ id, status, path });
}

describe('hostile input is a 4xx, recorded, and spends no upstream call', () => {
  it('JSON nested 100,000 levels deep in a field, and as the whole body', async () => {
    const inField = await send('/v1/hotels/search', { body: `{"q":${nested(100_000)}}` });
    expect(inField.status).toBe(422);
    expect(inField.text.length).toBeLessThan(16_384);
    expect(inField.json.detail[0]).toMatchObject({ type: 'value_error', loc: expect.arrayContaining(['body', 'q']) });
    await expectRecorded(inField.id, 422, '/v1/hotels/search');

    const whole = await send('/v1/hotels/search', { body: nested(500_000) });
    expect(whole.status).toBe(422);
    expect(whole.text.length).toBeLessThan(16_384);
    await expectRecorded(whole.id, 422, '/v1/hotels/search');
  });

  it('NUL characters in a body string, a field name, a query value and a path parameter', async () => {
    const body = await send('/v1/hotels/search', { body: JSON.stringify({ ...SEARCH, q: 'par\u0000is' }) });
    expect(body.status).toBe(422);
    expect(body.json.detail).toEqual([{ type: 'string_unicode', loc: ['body', 'q'], msg: 'Input should not contain NUL characters', input: 'par\u0000is' }]);
    await expectRecorded(body.id, 422, '/v1/hotels/search');

    const key0 = await send('/v1/hotels/search', { body: JSON.stringify({ ...SEARCH, 'a\u0000': 1 }) });
    expect(key0.status).toBe(422);
    expect(key0.json.detail[0]).toMatchObject({ type: 'string_unicode', loc: ['body', 'a\u0000'] });

    const query = await send('/v1/rates?token=abc%00def');
    expect(query.status).toBe(422);
    expect(query.json.detail[0]).toMatchObject({ type: 'string_unicode', loc: ['query', 'token'] });
    await expectRecorded(query.id, 422, '/v1/rates');

    const path = await send('/v1/requests/req_%00');
    expect(path.status).toBe(422);
    expect(path.json.detail[0]).toMatchObject({ type: 'string_unicode', loc: ['path', 'request_id'] });
    await expectRecorded(path.id, 422, '/v1/requests/{request_id}');
  });

  it('a lone surrogate (which PostgreSQL jsonb refuses) is a 422', async () => {
    const res = await send('/v1/hotels/search', { body: `{"q":"x\\ud800y","check_in":"2030-01-10","check_out":"2030-01-12"}` });
    expect(res.status).toBe(422);
    expect(res.json.detail[0]).toMatchObject({ type: 'string_unicode', loc: ['body', 'q'] });
  });

  it('a 2 MB field: the error quotes 100 characters of it and stays under 16 KB', async () => {
    const res = await send('/v1/hotels/search', { body: JSON.stringify({ ...SEARCH, q: 'x'.repeat(2_000_000) }) });
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(16_384);
    expect(res.json.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'q'], input: `${'x'.repeat(100)}…` });

    const many = await send('/v1/hotels/search', {
      body: JSON.stringify(Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`k${'y'.repeat(300)}${i}`, 'z'.repeat(1_000)]))),
    });
    expect(many.status).toBe(422);
    expect(many.text.length).toBeLessThan(16_384);
    expect(many.json.detail.at(-1)).toMatchObject({ type: 'too_many_errors' });
  });

  it('malformed JSON and a body over the limit are answered and recorded', async () => {
    const bad = await send('/v1/hotels/search', { body: '{"q": "paris",' });
    expect(bad.status).toBe(422);
    expect(bad.json.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body'] });
    await expectRecorded(bad.id, 422, '/v1/hotels/search');

    const big = await send('/v1/hotels/search', { body: JSON.stringify({ q: 'y'.repeat(3_000_000) }) });
    expect(big.status).toBe(413);
    await expectRecorded(big.id, 413, '/v1/hotels/search');
  });

  it('a path parameter that is not valid percent-encoding is invalid input of that operation', async () => {
    const res = await send(`/v1/requests/%E0%A4%A${'x'.repeat(5_000)}`);
    expect(res.status).toBe(422);
    expect(res.json.detail).toEqual([{ type: 'url_parsing', loc: ['path'], msg: expect.any(String), input: `/v1/requests/%E0%A4%A${'x'.repeat(79)}…` }]);
    await expectRecorded(res.id, 422, '/v1/requests/{request_id}');
  });

  it('none of the above reached an upstream', () => {
    expect(replay.requests).toEqual([]);
  });
});

describe('MCP: the same rules through the shared error mapping', () => {
  async function callTool(args: string) {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_hotels","arguments":${args}}}`,
    });
    const text = await res.text();
    // a JSON response, or the one `data:` line of an SSE response
    const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
    return { status: res.status, text, result: (JSON.parse(json) as any).result };
  }

  it('deeply nested arguments: a 422 tool error, no internal error text', async () => {
    const res = await callTool(`{"q":${nested(100_000)}}`);
    expect(res.status).toBe(200);
    expect(res.result).toMatchObject({ isError: true, _meta: { status: 422 } });
    expect(res.text).not.toMatch(/Maximum call stack|RangeError/);
    expect(res.text.length).toBeLessThan(16_384);
  });

  it('a 2 MB argument and a NUL character: short 422 tool errors', async () => {
    const huge = await callTool(JSON.stringify({ ...SEARCH, q: 'x'.repeat(2_000_000) }));
    expect(huge.result).toMatchObject({ isError: true, _meta: { status: 422 } });
    expect(huge.text.length).toBeLessThan(16_384);
    const nul = await callTool(JSON.stringify({ ...SEARCH, q: '\u0000' }));
    expect(nul.result).toMatchObject({ isError: true, _meta: { status: 422 } });
    expect(replay.requests).toEqual([]);
  });
});

describe('the OAuth and dashboard forms refuse what PostgreSQL cannot store', () => {
  const post = (path: string, type: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${svc.url}${path}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body, redirect: 'manual' });

  it('client registration with a NUL, a lone surrogate or deep nesting in its metadata', async () => {
    for (const extra of ['"client_name":"a\\u0000b"', '"x":"\\ud800"', `"x":${nested(100_000)}`]) {
      const res = await post('/oauth/register', 'application/json', `{"redirect_uris":["https://app.example/cb"],${extra}}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
  });

  it('token and revocation requests with a NUL in client_id or a parameter', async () => {
    for (const [path, body] of [
      ['/oauth/token', 'grant_type=authorization_code&code=abc&client_id=a%00b'],
      ['/oauth/token', 'grant_type=refresh_token&refresh_token=%00&client_id=x'],
      ['/oauth/revoke', 'token=%00&client_id=https%3A%2F%2Fapp.example%2F%00'],
    ]) {
      const res = await post(path, 'application/x-www-form-urlencoded', body);
      expect([400, 401]).toContain(res.status);
    }
  });

  it('dashboard sign-in with a NUL in the email', async () => {
    const page = await fetch(`${svc.url}/dashboard/sign-in`);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
    const res = await post('/dashboard/sign-in', 'application/x-www-form-urlencoded', `_csrf=${csrf}&email=a%00b%40x.example&password=x`, { cookie });
    expect(res.status).toBe(400);
  });
});

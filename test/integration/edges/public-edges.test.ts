import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { hashPassword } from '../../../src/doors/dashboard/password.js';
import { OAUTH_PRUNE_QUEUE } from '../../../src/workers/oauth-prune.js';
import { METADATA_MAX_BYTES } from '../../../src/doors/oauth/client-metadata.js';
import { approveGrant } from '../../../src/platform/oauth-store.js';
import { startService } from '../../../src/app/service.js';
import { FormBrowser } from '../../helpers/form-browser.js';
import { registerClient } from '../../helpers/oauth-flow.js';
import { runEntry } from '../../helpers/spawn-service.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

/**
 * The edges an outsider reaches without an account, or a careless deployment opens (issue 25):
 * open client registration, the issuer, passwords, MCP protocol errors and Connection: close,
 * each through the real routes of the real service.
 */

/** A request with headers fetch will not send as given (a forged Host). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const REDIRECT = 'http://127.0.0.1:7777/callback';
const REPO = path.resolve(import.meta.dirname, '../../..');

describe('open client registration', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ OAUTH_PENDING_CLIENTS_MAX: '10', OAUTH_REGISTRATIONS_PER_IP_PER_MIN: '1000' });
  });
  afterAll(() => svc?.close());
  const clients = async () => (await svc.deps.sql`SELECT count(*)::int AS n FROM oauth_clients`)[0].n as number;

  it('a 2 MB registration is refused before it is parsed; nothing is stored', async () => {
    const before = await clients();
    const res = await fetch(`${svc.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Big', padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, string>;
    expect(body.error).toBe('invalid_client_metadata');
    expect(body.error_description.length).toBeLessThan(200);
    expect(await clients()).toBe(before);
  });

  it('unknown members are dropped, neither stored nor echoed; what is kept stays under 8 KB', async () => {
    const reg = await registerClient(svc.url, {
      client_name: 'Trimmed app',
      'client_name#fr': 'Appli',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      client_uri: 'https://app.example/',
      software_statement: 'eyJ'.padEnd(3000, 'A'),
      extension: { nested: 'y'.repeat(9000) },
    });
    expect(reg.status).toBe(201);
    expect(Object.keys(reg.body).sort()).toEqual([
      'client_id',
      'client_id_issued_at',
      'client_name',
      'client_uri',
      'grant_types',
      'redirect_uris',
      'response_types',
      'token_endpoint_auth_method',
    ]);
    const [row] = await svc.deps.sql`SELECT metadata, octet_length(metadata::text) AS bytes FROM oauth_clients WHERE client_id = ${reg.body.client_id}`;
    expect(row.bytes).toBeLessThan(METADATA_MAX_BYTES);
    expect(Object.keys(row.metadata)).not.toContain('extension');
    expect(Object.keys(row.metadata)).not.toContain('client_name#fr');
  });

  it('client_uri, logo_uri and policy_uri must be https URLs; long members are refused', async () => {
    for (const [field, value] of [
      ['client_uri', 'http://app.example/'],
      ['logo_uri', 'javascript:alert(1)'],
      ['policy_uri', 'data:text/html,<script>alert(1)</script>'],
      ['tos_uri', 'https://user:pw@app.example/'],
      ['client_name', 'n'.repeat(101)],
      ['contacts', Array.from({ length: 6 }, (_, i) => `c${i}@app.example`)],
    ] as const) {
      const res = await registerClient(svc.url, { client_name: 'x', redirect_uris: [REDIRECT], [field]: value });
      expect([field, res.status, res.body.error]).toEqual([field, 400, 'invalid_client_metadata']);
      expect(res.body.error_description).toContain(field);
    }
    expect(
      (
        await registerClient(svc.url, {
          client_name: 'ok',
          redirect_uris: [REDIRECT],
          logo_uri: 'https://app.example/logo.png',
          policy_uri: 'https://app.example/privacy',
        })
      ).status,
    ).toBe(201);
  });

  it('clients no account approved are capped, the oldest evicted first; approved ones stay; an hourly schedule prunes them', async () => {
    const approved = await registerClient(svc.url, { client_name: 'Approved', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const { account_id } = await svc.key();
    await approveGrant(svc.deps.sql, { accountId: account_id, clientId: approved.body.client_id, scope: 'mcp' });
    const ids: string[] = [];
    for (let i = 0; i < 15; i++)
      ids.push((await registerClient(svc.url, { client_name: `Pending ${i}`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id);
    const left = (await svc.deps.sql`SELECT client_id FROM oauth_clients`).map((r) => r.client_id as string);
    expect(left).toContain(approved.body.client_id);
    expect(left.filter((id) => id !== approved.body.client_id).sort()).toEqual(ids.slice(-10).sort());
    const schedules = await svc.deps.queue.boss().getSchedules();
    expect(schedules.map((s) => s.name)).toContain(OAUTH_PRUNE_QUEUE);
  });
});

describe('registration rate limits', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ OAUTH_REGISTRATIONS_PER_IP_PER_MIN: '3', OAUTH_REGISTRATIONS_PER_MIN: '2' });
  });
  afterAll(() => svc?.close());

  it('limits registrations for everyone together and per address', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await registerClient(svc.url, { client_name: `r${i}`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429, 429]);
    expect(answers[2].body.error_description).toContain('right now');
    expect(answers[3].body.error_description).toContain('from this address');
  });
});

describe('the issuer never follows the Host header', () => {
  it('a production start (NODE_ENV=production, a non-loopback HOST, TRUST_PROXY) without PUBLIC_BASE_URL is refused', async () => {
    for (const env of [{ NODE_ENV: 'production', HOST: '127.0.0.1' }, { HOST: '0.0.0.0' }, { HOST: '127.0.0.1', TRUST_PROXY: 'loopback' }]) {
      // refused before the database is even opened
      await expect(startService(loadConfig({ ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }))).rejects.toThrow(
        /PUBLIC_BASE_URL: required in production/,
      );
    }
    const started = await runEntry('src/main.ts', [], {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_BASE_URL: undefined,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(started.code).not.toBe(0);
    expect(started.stderr).toMatch(/PUBLIC_BASE_URL: required in production \(NODE_ENV=production\)/);
  });

  it('in production mode the issuer, resource, links and challenge are PUBLIC_BASE_URL whatever Host says', async () => {
    const svc = await startTestService({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.test' });
    try {
      for (const host of ['evil.example', 'api.example.test', `127.0.0.1:${new URL(svc.url).port}`]) {
        const as = JSON.parse((await rawGet(svc.url, '/.well-known/oauth-authorization-server', { host })).text);
        expect(as).toMatchObject({
          issuer: 'https://api.example.test',
          token_endpoint: 'https://api.example.test/oauth/token',
          registration_endpoint: 'https://api.example.test/oauth/register',
        });
        const prm = JSON.parse((await rawGet(svc.url, '/.well-known/oauth-protected-resource/mcp', { host })).text);
        expect(prm).toMatchObject({ resource: 'https://api.example.test/mcp', authorization_servers: ['https://api.example.test'] });
        expect(JSON.parse((await rawGet(svc.url, '/openapi.json', { host })).text).servers[0].url).toBe('https://api.example.test');
      }
      const challenge = await rawGet(svc.url, '/mcp', { host: 'api.example.test', 'x-forwarded-host': 'evil.example' });
      expect(challenge.status).toBe(401);
      expect(challenge.headers['www-authenticate']).toContain('resource_metadata="https://api.example.test/.well-known/oauth-protected-resource/mcp"');
    } finally {
      await svc.close();
    }
  });

  it('on a loopback start without PUBLIC_BASE_URL a forged Host gets this machine’s URL, never its own', async () => {
    const svc = await startTestService();
    try {
      const port = new URL(svc.url).port;
      const issuer = async (host: string) => JSON.parse((await rawGet(svc.url, '/.well-known/oauth-authorization-server', { host })).text).issuer;
      expect(await issuer('evil.example')).toBe(`http://127.0.0.1:${port}`);
      expect(await issuer('evil.example:443')).toBe(`http://127.0.0.1:${port}`);
      expect(await issuer('localhost:1')).toBe(`http://localhost:${port}`);
      expect(await issuer(`[::1]:${port}`)).toBe(`http://[::1]:${port}`);
    } finally {
      await svc.close();
    }
  });
});

describe('password rules', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.close());

  const passwordForm = async (b: FormBrowser) => {
    const page = await b.request('/dashboard/password');
    return { page, _csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1] };
  };

  it('a new password that is common, the email, or a trivial run is refused with the reason; the form states the rules', async () => {
    const issued = await createDashboardAccount(svc.deps.sql, { email: 'rules@example.com', plan: 'free' });
    const b = new FormBrowser(svc.url);
    expect((await b.signIn(issued.email, issued.temporaryPassword)).location).toBe('/dashboard/password');
    const { page, _csrf } = await passwordForm(b);
    expect(page.text).toContain('not one of the most common passwords');
    const attempt = (pw: string) => b.request('/dashboard/password', { form: { _csrf, current: issued.temporaryPassword, new_password: pw, confirm: pw } });
    for (const [pw, why] of [
      ['password1234', 'most commonly used'],
      ['aaaaaaaaaaaa', 'repeated or consecutive run'],
      ['123456789012', 'repeated or consecutive run'],
      ['rules@example.com', 'email address'],
      ['rules.rules.2024', 'email address'],
      ['short', 'at least 12 characters'],
    ]) {
      const res = await attempt(pw);
      expect([pw, res.status]).toEqual([pw, 400]);
      expect(res.text).toContain(why);
    }
    expect(await attempt('lantern orchard seventeen')).toMatchObject({ status: 303, location: '/dashboard/api?notice=password' });
    // each attempt checks the current password with the deliberately slow hash: minutes on a loaded machine
  }, 180_000);

  it('an account whose password breaks the rules signs in, is asked to change it before anything else, and then goes on', async () => {
    const issued = await createDashboardAccount(svc.deps.sql, { email: 'old-habits@example.com', plan: 'free' });
    await svc.deps.sql`UPDATE accounts SET password_hash = ${await hashPassword('password1234')}, must_change_password = false WHERE id = ${issued.accountId}`;
    const b = new FormBrowser(svc.url);
    expect(await b.signIn(issued.email, 'password1234')).toMatchObject({ status: 303, location: '/dashboard/password' });
    expect(await b.request('/dashboard/api')).toMatchObject({ status: 303, location: '/dashboard/password' });
    const { page, _csrf } = await passwordForm(b);
    expect(page.text).toContain('Your password no longer meets our password rules');
    expect(page.text).toContain('most commonly used');
    expect(page.text).toContain('Current password');
    const next = 'a quieter password, at last';
    expect(await b.request('/dashboard/password', { form: { _csrf, current: 'password1234', new_password: next, confirm: next } })).toMatchObject({
      status: 303,
      location: '/dashboard/api?notice=password',
    });
    const [row] = await svc.deps.sql`SELECT must_change_password, password_rule_problem FROM accounts WHERE id = ${issued.accountId}`;
    expect(row).toEqual({ must_change_password: false, password_rule_problem: null });
    expect(await new FormBrowser(svc.url).signIn(issued.email, next)).toMatchObject({ status: 303, location: '/dashboard/api' });
  });
});

/** One JSON-RPC request to /mcp; the reply is JSON or one server-sent event carrying it. */
async function rpc(svc: TestService, key: string, body: unknown) {
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return { status: res.status, body: JSON.parse(json!) };
}

describe('MCP protocol errors and Connection: close', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService();
    key = (await svc.key()).key;
  });
  afterAll(() => svc?.close());

  it('initialize with invalid params is -32602 with a short message, not -32603 with a validation dump', async () => {
    for (const params of [
      undefined,
      { protocolVersion: 5, capabilities: 'x' },
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x'.repeat(5000) } },
      { protocolVersion: '2025-06-18' },
    ]) {
      const { body } = await rpc(svc, key, { jsonrpc: '2.0', id: 7, method: 'initialize', ...(params ? { params } : {}) });
      expect(body.id).toBe(7);
      if (body.result) continue; // a valid handshake (a long client name is the client's business)
      expect(body.error.code).toBe(-32602);
      expect(body.error.message.length).toBeLessThan(200);
      expect(body.error.message).not.toContain('\n');
    }
    const missing = await rpc(svc, key, { jsonrpc: '2.0', id: 8, method: 'initialize', params: { protocolVersion: 5 } });
    expect(missing.body.error).toEqual({ code: -32602, message: expect.stringMatching(/^Invalid params: params\.protocolVersion: .* \(and 2 more\)$/) });
  });

  it('other requests with invalid params: -32602, short', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5, arguments: 'x'.repeat(10_000) } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x'.repeat(10_000), arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: { deep: ['x'.repeat(1000)] } } },
    ]) {
      const reply = await rpc(svc, key, body);
      expect(reply.body.error.code).toBe(-32602);
      expect(reply.body.error.message.length).toBeLessThan(200);
    }
  });

  /** Sends one raw request and resolves when the server has answered and closed the socket (the guard fails the test if it never does). */
  function closedAfterReply(head: string, body = ''): Promise<string> {
    const port = Number(new URL(svc.url).port);
    return new Promise((resolve, reject) => {
      let data = '';
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`${head}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      );
      const guard = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the socket stayed open after the reply:\n${data.slice(0, 400)}`));
      }, 15_000);
      socket.on('data', (d) => (data += d));
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(guard);
        resolve(data);
      });
    });
  }

  it('every kind of reply closes its socket: JSON, HTML, errors and MCP event streams', async () => {
    const mcp = (method: string, params: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const mcpHead = `POST /mcp HTTP/1.1\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18`;
    const cases: [string, string, RegExp][] = [
      [`GET /v1/billing HTTP/1.1\r\nx-api-key: ${key}`, '', /^HTTP\/1\.1 200/],
      ['GET /healthz HTTP/1.1', '', /^HTTP\/1\.1 200/],
      ['GET /nowhere HTTP/1.1', '', /^HTTP\/1\.1 404/],
      ['GET /dashboard/sign-in HTTP/1.1', '', /^HTTP\/1\.1 200/],
      ['POST /oauth/register HTTP/1.1\r\ncontent-type: application/json', '{}', /^HTTP\/1\.1 400/],
      [mcpHead, mcp('tools/list', {}), /content-type: text\/event-stream/i],
      [mcpHead, mcp('tools/call', { name: 'get_credit_balance', arguments: {} }), /content-type: text\/event-stream/i],
      [mcpHead, mcp('initialize', { protocolVersion: 5 }), /-32602/],
      [`${mcpHead.replace('accept: application/json, text/event-stream', 'accept: text/event-stream')}`, mcp('tools/list', {}), /^HTTP\/1\.1 406/],
    ];
    for (const [head, body, expected] of cases) {
      const reply = await closedAfterReply(head, body);
      expect(reply).toMatch(expected);
      expect(reply).toMatch(/\r\nconnection: close\r\n/i);
      expect(reply).not.toMatch(/\r\nconnection: keep-alive\r\n/i);
    }
  });
});

describe('MCP protocol errors over stdio', () => {
  it('the desktop server answers invalid initialize params with -32602 and a short message too', async () => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin/mcp-stdio.mjs')], {
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH, API_KEY: `sk_${'a'.repeat(32)}`, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const line = new Promise<string>((resolve) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
      });
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: 5, capabilities: 'x' } })}\n`);
      const reply = JSON.parse(await line);
      expect(reply).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.stringMatching(/^Invalid params: params\.protocolVersion: /) } });
      expect(reply.error.message.length).toBeLessThan(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

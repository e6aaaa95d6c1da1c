import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app/http-app.js';
import type { Config } from '../../../src/config/config.js';
import { createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { recentJobs } from '../../../src/doors/dashboard/jobs.js';
import { SIGN_IN_LIMITS } from '../../../src/platform/sign-in-attempts.js';

/** Tens of scrypt checks in a row: many seconds on a loaded 2-core machine, so past the default 60 s budget. */
const SCRYPT_LOOP_TIMEOUT = 240_000;
// every test of this file signs in (scrypt) several times: minutes between them on a loaded machine
vi.setConfig({ testTimeout: 180_000 });
import { FormBrowser as Browser } from '../../helpers/form-browser.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

const NEW_KEY = /<code class="secret" id="new-key">(sk_[A-Za-z0-9_-]{32})<\/code>/;

/** A key form as the browser submits it: 303 back to the API page, whose GET shows the outcome. */
async function keyAction(b: Browser, path: string, form: Record<string, string>) {
  expect(await b.request(path, { form })).toMatchObject({ status: 303, location: '/dashboard/api' });
  return b.request('/dashboard/api');
}
const NEW_PASSWORD = 'correct horse battery staple';

let svc: TestService;
let proxied: { server: Server; url: string };

/** An account whose temporary password was already replaced. */
async function readyAccount(email: string, plan: 'free' | 'starter' = 'starter') {
  const issued = await createDashboardAccount(svc.deps.sql, { email, plan });
  const b = new Browser(svc.url);
  await b.signIn(email, issued.temporaryPassword);
  const _csrf = await b.csrf('/dashboard/password');
  const done = await b.request('/dashboard/password', {
    form: { _csrf, current: issued.temporaryPassword, new_password: NEW_PASSWORD, confirm: NEW_PASSWORD },
  });
  expect(done.status).toBe(303);
  return { b, issued };
}

beforeAll(async () => {
  svc = await startTestService();
  // The same service behind a trusted proxy (loopback): X-Forwarded-For / -Proto are believed.
  const app = createApp({ ...svc.deps, config: { ...svc.deps.config, TRUST_PROXY: 'loopback' } as Config });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  proxied = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    if (!proxied) return resolve();
    proxied.server.close(() => resolve());
    proxied.server.closeAllConnections();
  });
  await svc?.close();
});

describe('dashboard sign-in', () => {
  it('/ leads to the dashboard, and the dashboard to the sign-in page', async () => {
    const b = new Browser(svc.url);
    expect(await b.request('/')).toMatchObject({ status: 302, location: '/dashboard' });
    expect(await b.request('/dashboard')).toMatchObject({ status: 303, location: '/dashboard/sign-in' });
    const page = await b.request('/dashboard/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="/dashboard/sign-in">');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('session cookie is HttpOnly, SameSite=Lax, scoped to /dashboard; Secure only behind HTTPS', async () => {
    const plain = new Browser(svc.url);
    await plain.request('/dashboard/sign-in');
    expect(plain.lastSetCookie).toHaveLength(1);
    expect(plain.lastSetCookie[0]).toMatch(/^dash_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; Max-Age=\d+; HttpOnly; SameSite=Lax$/);

    const behindHttps = new Browser(proxied.url, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' });
    await behindHttps.request('/dashboard/sign-in');
    expect(behindHttps.lastSetCookie[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    // Without trust in the proxy, a forged header changes nothing.
    const forged = new Browser(svc.url, { 'x-forwarded-proto': 'https' });
    await forged.request('/dashboard/sign-in');
    expect(forged.lastSetCookie[0]).not.toContain('Secure');
  });

  it('a wrong password or an unknown email fails with the same answer and opens nothing', async () => {
    const issued = await createDashboardAccount(svc.deps.sql, { email: 'wrong@example.com', plan: 'free' });
    const b = new Browser(svc.url);
    const wrong = await b.signIn('wrong@example.com', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
    expect(await b.request('/dashboard/api')).toMatchObject({ status: 303, location: '/dashboard/sign-in' });
    const unknown = await b.signIn('nobody@example.com', issued.temporaryPassword);
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain('Wrong email or password.');
    // Email is matched without regard to case.
    const ok = await b.signIn('WRONG@Example.com', issued.temporaryPassword);
    expect(ok).toMatchObject({ status: 303, location: '/dashboard/password' });
  });

  it(
    'refuses attempts beyond the per-email limit, even with the right password',
    async () => {
      const issued = await createDashboardAccount(svc.deps.sql, { email: 'limited@example.com', plan: 'free' });
      const b = new Browser(proxied.url, { 'x-forwarded-for': '198.51.100.20' });
      for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) expect((await b.signIn('limited@example.com', `guess-${i}`)).status).toBe(401);
      const refused = await b.signIn('limited@example.com', issued.temporaryPassword);
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Too many sign-in attempts');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await b.request('/dashboard/api')).toMatchObject({ status: 303, location: '/dashboard/sign-in' });
      // From another address the email stays locked: the limit is per email, not per client.
      const elsewhere = new Browser(proxied.url, { 'x-forwarded-for': '198.51.100.21' });
      expect((await elsewhere.signIn('limited@example.com', issued.temporaryPassword)).status).toBe(429);
      const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM dashboard_sign_in_attempts WHERE email = 'limited@example.com' AND outcome = 'refused'`;
      expect(n).toBe(2);
    },
    SCRYPT_LOOP_TIMEOUT,
  );

  it(
    'refuses attempts beyond the per-IP limit, whatever the email',
    async () => {
      const issued = await createDashboardAccount(svc.deps.sql, { email: 'ip-victim@example.com', plan: 'free' });
      const attacker = new Browser(proxied.url, { 'x-forwarded-for': '203.0.113.7' });
      for (let i = 0; i < SIGN_IN_LIMITS.perIp; i++) expect((await attacker.signIn(`spray-${i}@example.com`, 'password123')).status).toBe(401);
      expect((await attacker.signIn('fresh@example.com', 'password123')).status).toBe(429);
      expect((await attacker.signIn('ip-victim@example.com', issued.temporaryPassword)).status).toBe(429);
      const other = new Browser(proxied.url, { 'x-forwarded-for': '203.0.113.8' });
      expect(await other.signIn('ip-victim@example.com', issued.temporaryPassword)).toMatchObject({ status: 303, location: '/dashboard/password' });
    },
    SCRYPT_LOOP_TIMEOUT,
  );
});

describe('forced password change', () => {
  it('a temporary password opens only the password page until it is replaced', async () => {
    const issued = await createDashboardAccount(svc.deps.sql, { email: 'first@example.com', plan: 'starter' });
    expect(issued.temporaryPassword).toMatch(/^[a-z0-9]{5}(-[a-z0-9]{5}){3}$/);
    const [row] = await svc.deps.sql`SELECT password_hash, must_change_password FROM accounts WHERE id = ${issued.accountId}`;
    expect(row.must_change_password).toBe(true);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(row.password_hash).not.toContain(issued.temporaryPassword);

    const b = new Browser(svc.url);
    expect(await b.signIn('first@example.com', issued.temporaryPassword)).toMatchObject({ status: 303, location: '/dashboard/password' });
    for (const page of ['/dashboard', '/dashboard/api', '/dashboard/usage', '/dashboard/jobs']) {
      expect(await b.request(page)).toMatchObject({ status: 303, location: '/dashboard/password' });
    }
    const form = await b.request('/dashboard/password');
    expect(form.text).toContain('Choose your password');
    const _csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const post = (current: string, next: string, confirm = next) => b.request('/dashboard/password', { form: { _csrf, current, new_password: next, confirm } });
    expect((await post('wrong-temporary', NEW_PASSWORD)).text).toContain('The temporary password is wrong.');
    expect((await post(issued.temporaryPassword, 'short')).text).toContain('at least 12 characters');
    expect((await post(issued.temporaryPassword, NEW_PASSWORD, `${NEW_PASSWORD}!`)).text).toContain('do not match');
    expect((await post(issued.temporaryPassword, issued.temporaryPassword)).text).toContain('must differ');
    const before = b.cookie;
    expect(await post(issued.temporaryPassword, NEW_PASSWORD)).toMatchObject({ status: 303, location: '/dashboard/api?notice=password' });
    expect(b.cookie).not.toBe(before);
    const api = await b.request('/dashboard/api?notice=password');
    expect(api.status).toBe(200);
    expect(api.text).toContain('Your password has been saved.');
    expect(api.text).toContain('This account has no API key yet.');

    // The old session ended with the change; the temporary password no longer works, the new one does.
    const stale = new Browser(svc.url);
    stale.cookie = before;
    expect(await stale.request('/dashboard/api')).toMatchObject({ status: 303, location: '/dashboard/sign-in' });
    const again = new Browser(svc.url);
    expect((await again.signIn('first@example.com', issued.temporaryPassword)).status).toBe(401);
    expect(await again.signIn('first@example.com', NEW_PASSWORD)).toMatchObject({ status: 303, location: '/dashboard/api' });
  });

  it('the accounts CLI prints a temporary password that signs in', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/accounts.ts', 'create', '--email', 'CLI@Example.com', '--plan', 'growth'],
      {
        env: { ...process.env, DATABASE_URL: svc.deps.config.DATABASE_URL, LOG_LEVEL: 'silent' },
      },
    );
    const [, password] = /shown once[^\n]*\n(\S+)\n$/.exec(stdout)!;
    expect(stdout).toMatch(/^created account acct_\w+ \(cli@example\.com, growth plan\)/);
    const [row] = await svc.deps.sql`SELECT plan, name FROM accounts WHERE email = 'cli@example.com'`;
    expect(row).toEqual({ plan: 'growth', name: 'cli@example.com' });
    expect(await new Browser(svc.url).signIn('cli@example.com', password)).toMatchObject({ status: 303, location: '/dashboard/password' });
    await expect(createDashboardAccount(svc.deps.sql, { email: 'cli@example.com', plan: 'free' })).rejects.toThrow(/already exists/);
  });
});

describe('CSRF', () => {
  it('a form without its token (or with another session’s) is refused with 403 and changes nothing', async () => {
    const anonymous = new Browser(svc.url);
    await anonymous.request('/dashboard/sign-in');
    expect((await anonymous.request('/dashboard/sign-in', { form: { email: 'x@example.com', password: 'whatever-123' } })).status).toBe(403);

    const { b, issued } = await readyAccount('csrf@example.com');
    const other = await readyAccount('csrf-other@example.com');
    const otherToken = await other.b.csrf('/dashboard/api');
    const missing = await b.request('/dashboard/api/key', { form: {} });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('Form expired');
    expect((await b.request('/dashboard/api/key', { form: { _csrf: otherToken } })).status).toBe(403);
    expect((await b.request('/dashboard/sign-out', { form: {} })).status).toBe(403);
    const [{ n }] = await svc.deps.sql`SELECT count(*)::int AS n FROM api_keys WHERE account_id = ${issued.accountId}`;
    expect(n).toBe(0);
    // No cookie at all: still 403, not a redirect that would look like success.
    expect((await new Browser(svc.url).request('/dashboard/api/key', { form: { _csrf: otherToken } })).status).toBe(403);
  });
});

describe('dashboard and API credentials stay apart', () => {
  it('keys are created and rotated in the dashboard (POST, 303, GET); the old key stops at once', async () => {
    const { b, issued } = await readyAccount('keys@example.com', 'starter');
    const _csrf = await b.csrf('/dashboard/api');
    const created = await keyAction(b, '/dashboard/api/key', { _csrf });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = NEW_KEY.exec(created.text)![1];
    expect(created.text).toContain('<code>acct-keys@example.com</code>');
    expect(created.text).toContain(`<code>${key.slice(0, 9)}…</code>`);
    expect(created.text).toContain('300 / min');
    expect((await svc.call('/v1/billing', { key })).status).toBe(200);

    const again = await keyAction(b, '/dashboard/api/key', { _csrf });
    expect(again.text).toContain('already has a key');
    const later = await b.request('/dashboard/api');
    expect(later.text).not.toContain(key);
    expect(later.text).not.toContain('already has a key');
    expect(later.text).toContain(`${key.slice(0, 9)}…`);

    // the confirmation page rotates nothing
    const confirm = await b.request('/dashboard/api/rotate?name=acct-keys%40example.com');
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('The current key stops working at once');
    expect((await svc.call('/v1/billing', { key })).status).toBe(200);
    expect(await b.request('/dashboard/api/rotate?name=acct-someone-else%40example.com')).toMatchObject({ status: 303, location: '/dashboard/api' });

    const foreign = await keyAction(b, '/dashboard/api/rotate', { _csrf, name: 'acct-someone-else@example.com' });
    expect(foreign.text).toContain('No such key on this account.');
    const rotated = await keyAction(b, '/dashboard/api/rotate', { _csrf, name: 'acct-keys@example.com' });
    const fresh = NEW_KEY.exec(rotated.text)![1];
    expect(fresh).not.toBe(key);
    // a reload is a GET: it neither shows the key again nor rotates again
    const reloaded = await b.request('/dashboard/api');
    expect(reloaded.text).not.toContain(fresh);
    expect(reloaded.text).toContain(`${fresh.slice(0, 9)}…`);
    expect((await svc.call('/v1/billing', { key })).status).toBe(401);
    const billing = await svc.call('/v1/billing', { key: fresh });
    expect(billing.status).toBe(200);
    expect(((await billing.json()) as { account_id: string }).account_id).toBe(issued.accountId);
    const live = await svc.deps.sql`SELECT name, rate_limit_per_min FROM api_keys WHERE account_id = ${issued.accountId} AND revoked_at IS NULL`;
    expect(live).toEqual([{ name: 'acct-keys@example.com', rate_limit_per_min: 300 }]);
  });

  it('an API key never opens the dashboard', async () => {
    const key = (await svc.key()).key;
    const credentials: Record<string, string>[] = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }];
    for (const headers of credentials) {
      for (const page of ['/dashboard', '/dashboard/api', '/dashboard/usage']) {
        expect(await new Browser(svc.url, headers).request(page)).toMatchObject({ status: 303, location: '/dashboard/sign-in' });
      }
      expect((await new Browser(svc.url, headers).request(`/dashboard/api/key`, { form: {} })).status).toBe(403);
    }
  });

  it('the dashboard cookie never authenticates /v1/*', async () => {
    const { b } = await readyAccount('cookie@example.com');
    expect((await b.request('/dashboard/api')).status).toBe(200);
    for (const path of ['/v1/billing', '/v1/usage', '/v1/markets']) {
      const res = await fetch(svc.url + path, { headers: { cookie: b.cookie! } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: 'missing or invalid API key' });
    }
  });
});

describe('usage and jobs pages', () => {
  it('usage shows the account’s calls by endpoint, its credits and ledger', async () => {
    const { b } = await readyAccount('usage@example.com', 'starter');
    const _csrf = await b.csrf('/dashboard/api');
    const key = NEW_KEY.exec((await keyAction(b, '/dashboard/api/key', { _csrf })).text)![1];
    for (const path of ['/v1/billing', '/v1/markets', '/v1/markets', '/v1/no-such']) await svc.call(path, { key });
    const page = await b.request('/dashboard/usage?period=7d');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<code>GET \/v1\/markets<\/code><\/td><td data-label="Requests" class="num">2<\/td><td data-label="Errors" class="num">0<\/td>/);
    expect(page.text).toMatch(/<code>GET \/v1\/billing<\/code><\/td><td data-label="Requests" class="num">1<\/td>/);
    expect(page.text).toContain('<svg class="wide" viewBox="0 0 960 230"');
    expect(page.text).toContain('<svg class="narrow" viewBox="0 0 420 250"');
    expect(page.text).toContain('3 requests in 7 days');
    expect(page.text).toContain('50,000');
    expect(page.text).toContain('starter plan monthly grant');
    const day = await b.request('/dashboard/usage?period=24h');
    expect(day.text).toContain('3 requests in 24 hours');
    expect(day.text).toContain('<a href="/dashboard/usage?period=24h" class="active"');
    expect((await b.request('/dashboard/usage?period=1y')).status).toBe(400);
  });

  it('jobs lists the account’s calendar batches and nobody else’s', async () => {
    const { b, issued } = await readyAccount('jobs@example.com');
    expect((await b.request('/dashboard/jobs')).text).toMatch(/No calendar batches yet|refreshjob_/);
    await b.request('/dashboard/api/key', { form: { _csrf: await b.csrf('/dashboard/api') } });
    const [{ present }] = await svc.deps.sql`SELECT to_regclass('calendar_jobs') IS NOT NULL AS present`;
    if (!present) {
      expect(await recentJobs(svc.deps.sql, issued.accountId)).toEqual([]);
      await svc.deps.sql`CREATE TABLE calendar_jobs (id text PRIMARY KEY, key_id text, account_id text, priority int, callback_status text,
        status text NOT NULL DEFAULT 'queued', items_total int NOT NULL, items_succeeded int NOT NULL DEFAULT 0, items_failed int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now())`;
    }
    const mine = await svc.deps.sql`SELECT id FROM api_keys WHERE account_id = ${issued.accountId}`;
    expect(mine).toHaveLength(1);
    const stranger = await svc.key();
    const insert = (id: string, keyId: string, accountId: string | null, status: string, total: number, ok: number, ko: number, ago: number) => svc.deps.sql`
      INSERT INTO calendar_jobs (id, key_id, account_id, priority, callback_status, status, items_total, items_succeeded, items_failed, created_at)
      VALUES (${id}, ${keyId}, ${accountId}, 5, 'not_configured', ${status}, ${total}, ${ok}, ${ko}, now() - make_interval(mins => ${ago}))`;
    await insert('refreshjob_old', mine[0].id, issued.accountId, 'partial', 10, 8, 2, 30);
    await insert('refreshjob_new', mine[0].id, issued.accountId, 'running', 20, 5, 0, 1);
    await insert('refreshjob_theirs', stranger.id, stranger.account_id, 'succeeded', 3, 3, 0, 0);
    const jobs = await recentJobs(svc.deps.sql, issued.accountId);
    expect(jobs.map((j) => [j.id, j.status, j.items_total, j.items_succeeded, j.items_failed])).toEqual([
      ['refreshjob_new', 'running', 20, 5, 0],
      ['refreshjob_old', 'partial', 10, 8, 2],
    ]);
    const page = await b.request('/dashboard/jobs');
    expect(page.text).toContain('<code>refreshjob_new</code></td><td data-label="Status"><span class="badge running">running</span>');
    expect(page.text).toMatch(/<td data-label="Items" class="num">10 \/ 10 <span class="muted">\(2 failed\)<\/span><\/td>/);
    expect(page.text).not.toContain('refreshjob_theirs');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { prunePendingClients } from '../../../src/doors/oauth/clients.js';
import { FormBrowser } from '../../helpers/form-browser.js';
import { TOOLS } from '../../../tools/index.js';
import { authorizeUrl, codeFlow, consent, mcpRequest, pkcePair, registerClient, signedInAccount, tokenRequest } from '../../helpers/oauth-flow.js';
import { PROBES } from '../../helpers/probe-tools.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

let svc: TestService;
let base: string;
let browser: FormBrowser;
let accountId: string;
const REDIRECT = 'http://127.0.0.1:7777/callback';
let client: { client_id: string; redirect_uri: string };

beforeAll(async () => {
  svc = await startTestService({}, { tools: [...TOOLS, ...PROBES] });
  base = svc.url;
  ({ browser, accountId } = await signedInAccount(svc.deps.sql, base, 'apps@example.com'));
  const reg = await registerClient(base, { client_name: 'Test MCP client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
  client = { client_id: reg.body.client_id, redirect_uri: REDIRECT };
});
afterAll(() => svc?.close());

const callProbe = (token: string, b = base) => mcpRequest(b, token, 'tools/call', { name: 'probe_metered', arguments: { items: 1 } });

describe('discovery', () => {
  it('serves protected resource metadata for /mcp at both well-known paths and authorization server metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = await fetch(base + path);
      expect(prm.status).toBe(200);
      expect(prm.headers.get('access-control-allow-origin')).toBe('*');
      expect(await prm.json()).toMatchObject({
        resource: `${base}/mcp`,
        authorization_servers: [base],
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
      });
    }
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/dashboard/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('a /mcp call without credentials gets 401 with the Bearer challenge; API keys work as before', async () => {
    const anonymous = await mcpRequest(base, undefined, 'tools/list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.challenge).toBe(
      `Bearer error="invalid_token", error_description="missing or invalid API key", scope="mcp", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(anonymous.body).toEqual({ detail: 'missing or invalid API key' });
    const key = (await svc.key()).key;
    expect((await mcpRequest(base, key, 'tools/list')).status).toBe(200);
    const badKey = await mcpRequest(base, `sk_${'z'.repeat(32)}`, 'tools/list');
    expect(badKey.status).toBe(401);
    expect(badKey.challenge).toContain('error="invalid_token"');
  });
});

describe('dynamic client registration', () => {
  it('refuses redirect URIs that are neither HTTPS nor loopback, and scripts', async () => {
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://app.example/cb#frag']) {
      const res = await registerClient(base, { client_name: 'x', redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    }
    expect((await registerClient(base, { client_name: 'x' })).body.error).toBe('invalid_redirect_uri');
  });

  it('a confidential client gets a secret once and must authenticate with it', async () => {
    const reg = await registerClient(base, { client_name: 'Server-side app', redirect_uris: ['https://app.example/cb'] });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret_expires_at: 0 });
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${reg.body.client_id}:${secret}`).toString('base64')}` });
    const wrong = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: 'x' }, basic('nope'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const right = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: 'x' }, basic(reg.body.client_secret));
    expect(right.body.error).toBe('invalid_grant');
  });

  it('registrations no account approved within a week are pruned; approved ones stay', async () => {
    const idle = await registerClient(base, { client_name: 'Never approved', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    await codeFlow(base, browser, client);
    await svc.deps
      .sql`UPDATE oauth_clients SET created_at = now() - interval '8 days' WHERE client_id IN ${svc.deps.sql([idle.body.client_id, client.client_id])}`;
    await prunePendingClients(svc.deps.sql, 1000);
    const left = await svc.deps.sql`SELECT client_id FROM oauth_clients WHERE client_id IN ${svc.deps.sql([idle.body.client_id, client.client_id])}`;
    expect(left.map((r) => r.client_id)).toEqual([client.client_id]);
  });
});

describe('authorization code flow', () => {
  it('signs in through the dashboard when needed, then comes back to the consent page', async () => {
    const { challenge } = pkcePair();
    const params = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's1',
    };
    const { browser: fresh, email, password } = await signedInAccount(svc.deps.sql, base, 'later@example.com');
    await fresh.request('/dashboard/sign-out', { form: { _csrf: await fresh.csrf('/dashboard/api') } });
    const first = await fresh.request(authorizeUrl(params));
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/dashboard/sign-in?next=${encodeURIComponent(authorizeUrl(params))}`);
    const signIn = await fresh.request(first.location!);
    const _csrf = /name="_csrf" value="([^"]+)"/.exec(signIn.text)![1];
    const back = await fresh.request('/dashboard/sign-in', { form: { _csrf, email, password, next: authorizeUrl(params) } });
    expect(back).toMatchObject({ status: 303, location: authorizeUrl(params) });
    const page = await fresh.request(back.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Connect Test MCP client?');
    expect(page.text).toContain('127.0.0.1:7777');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:7777");
  });

  it('a new account with a temporary password: sign-in, password change and an expired consent form all lead back to the consent page', async () => {
    const { challenge } = pkcePair();
    const params = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's2',
      scope: 'mcp',
    };
    const waiting = authorizeUrl(params);
    const issued = await createDashboardAccount(svc.deps.sql, { email: 'first-connection@example.com', plan: 'starter' });
    const fresh = new FormBrowser(base);
    const first = await fresh.request(waiting);
    expect(first.location).toBe(`/dashboard/sign-in?next=${encodeURIComponent(waiting)}`);
    const _csrf = /name="_csrf" value="([^"]+)"/.exec((await fresh.request(first.location!)).text)![1];
    const signedIn = await fresh.request('/dashboard/sign-in', { form: { _csrf, email: issued.email, password: issued.temporaryPassword, next: waiting } });
    // the temporary password is replaced first, and the request rides along
    expect(signedIn).toMatchObject({ status: 303, location: `/dashboard/password?next=${encodeURIComponent(waiting)}` });
    const form = await fresh.request(signedIn.location!);
    expect(form.text).toContain('The app you are connecting waits for this step');
    const csrf2 = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const next = /name="next" value="([^"]+)"/.exec(form.text)![1].replace(/&amp;/g, '&');
    expect(next).toBe(waiting);
    // a refused password keeps the request too
    const weak = await fresh.request('/dashboard/password', {
      form: { _csrf: csrf2, current: issued.temporaryPassword, new_password: 'password1234', confirm: 'password1234', next },
    });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('most commonly used');
    expect(weak.text).toContain(`name="next" value="${waiting.replace(/&/g, '&amp;')}"`);
    const changed = await fresh.request('/dashboard/password', {
      form: { _csrf: csrf2, current: issued.temporaryPassword, new_password: 'velvet hedgehog on the tram', confirm: 'velvet hedgehog on the tram', next },
    });
    expect(changed).toMatchObject({ status: 303, location: waiting });
    const consentPage = await fresh.request(changed.location!);
    expect(consentPage.status).toBe(200);
    expect(consentPage.text).toContain('Connect Test MCP client?');

    // the session ends while the consent page is open: the posted form leads through sign-in back to it
    const hidden: Record<string, string> = { decision: 'approve', _csrf: 'stale' };
    for (const m of consentPage.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      if (m[1] !== '_csrf') hidden[m[1]] = m[2].replace(/&amp;/g, '&');
    const stranger = new FormBrowser(base);
    const expired = await stranger.request('/dashboard/oauth/authorize', { form: hidden });
    expect(expired.status).toBe(303);
    const again = new URLSearchParams(expired.location!.split('?')[1]).get('next')!;
    expect(new URL(again, base).searchParams.get('state')).toBe('s2');
    expect(new URL(again, base).pathname).toBe('/dashboard/oauth/authorize');
  });

  it('issues tokens that call /mcp as the account: metered to it, recorded under the connected app', async () => {
    const { redirect, tokens } = await codeFlow(base, browser, client);
    expect(redirect.searchParams.get('iss')).toBe(base);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'mcp' });
    expect(tokens.body.access_token).toMatch(/^hr_at_/);
    expect(tokens.body.refresh_token).toMatch(/^hr_rt_/);

    const call = await callProbe(tokens.body.access_token);
    expect(call.status).toBe(200);
    expect(call.body.result.structuredContent).toEqual({ items: [0] });
    const requestId = call.body.result._meta.request_id;
    const [row] = await svc.deps.sql`
      SELECT h.credits, k.account_id, k.kind, c.client_name FROM request_history h
      JOIN api_keys k ON k.id = h.key_id JOIN oauth_grants g ON g.key_id = k.id JOIN oauth_clients c ON c.client_id = g.client_id
      WHERE h.id = ${requestId}`;
    expect(row).toEqual({ credits: 4, account_id: accountId, kind: 'oauth', client_name: 'Test MCP client' });
    const [charge] = await svc.deps.sql`SELECT account_id, amount FROM credit_ledger WHERE request_id = ${requestId} AND kind = 'charge'`;
    expect(charge).toEqual({ account_id: accountId, amount: -4 });
    const apps = await browser.request('/dashboard/apps');
    expect(apps.text).toContain('Test MCP client');
    // The call is in the history under the app that made it.
    expect(apps.text).toMatch(
      new RegExp(`<td>Test MCP client</td><td><code>MCP probe_metered</code></td><td class="num">200</td><td class="num">4</td><td><code>${requestId}</code>`),
    );

    // the account's own key reads the app's call in its history and usage, labelled with the app
    const own = await svc.key({ plan: 'starter' });
    await svc.deps.sql`UPDATE api_keys SET account_id = ${accountId} WHERE id = ${own.id}`;
    const record = await svc.call(`/v1/requests/${requestId}`, { key: own.key });
    expect(record.status).toBe(200);
    expect(await record.json()).toMatchObject({
      id: requestId,
      path: 'probe_metered',
      credits: 4,
      app: { client_id: client.client_id, name: 'Test MCP client' },
    });
    type Usage = { totals: { requests: number }; by_endpoint: unknown[]; by_app: { requests: number }[] };
    const usage = (await (await svc.call('/v1/usage?period=24h', { key: own.key })).json()) as Usage;
    expect(usage.by_app).toEqual([expect.objectContaining({ app: { client_id: client.client_id, name: 'Test MCP client' }, credits: expect.any(Number) })]);
    expect(usage.by_app[0].requests).toBeGreaterThanOrEqual(1);
    expect(usage.totals.requests).toBeGreaterThanOrEqual(usage.by_app[0].requests);
    expect(usage.by_endpoint).toContainEqual(expect.objectContaining({ method: 'MCP', path: 'probe_metered' }));
    // another account's key sees none of it
    const stranger = await svc.key();
    expect((await svc.call(`/v1/requests/${requestId}`, { key: stranger.key })).status).toBe(404);
    expect(((await (await svc.call('/v1/usage?period=24h', { key: stranger.key })).json()) as Usage).by_app).toEqual([]);
    const dashboard = await browser.request('/dashboard/usage?period=24h');
    expect(dashboard.text).toContain('By caller');
    expect(dashboard.text).toMatch(/<span class="badge">app<\/span> Test MCP client<\/td><td class="num">\d+<\/td>/);
  });

  it('refuses a reused authorization code and revokes what the first exchange obtained', async () => {
    const first = await codeFlow(base, browser, client);
    expect((await callProbe(first.tokens.body.access_token)).status).toBe(200);
    const again = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: first.code,
      redirect_uri: REDIRECT,
      code_verifier: first.verifier,
      client_id: client.client_id,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await callProbe(first.tokens.body.access_token)).status).toBe(401);
    expect(
      (await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: first.tokens.body.refresh_token, client_id: client.client_id })).body.error,
    ).toBe('invalid_grant');
  });

  it('a redirect URI that is not registered is never redirected to; at the token endpoint it is invalid_grant', async () => {
    const { challenge } = pkcePair();
    const page = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'http://127.0.0.1:7777/other',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.text).toContain('not one the app registered');

    const { verifier, challenge: c2 } = pkcePair();
    const answer = await consent(browser, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: c2,
      code_challenge_method: 'S256',
    });
    const code = new URL(answer.location!).searchParams.get('code')!;
    const wrong = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1:7777/other',
      code_verifier: verifier,
      client_id: client.client_id,
    });
    expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
    const badVerifier = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkcePair().verifier,
      client_id: client.client_id,
    });
    expect(badVerifier.body).toMatchObject({ error: 'invalid_grant', error_description: 'PKCE verification failed (code_verifier)' });
  });

  it('PKCE is S256 only, resource must be this /mcp, and a denial goes back as access_denied', async () => {
    const redirectError = async (extra: Record<string, string>, decision: 'approve' | 'deny' = 'approve') => {
      const { challenge } = pkcePair();
      const res = await consent(
        browser,
        {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
          ...extra,
        },
        decision,
      );
      expect(res.status).toBe(303);
      const u = new URL(res.location!);
      expect(u.origin + u.pathname).toBe(REDIRECT);
      expect(u.searchParams.get('state')).toBe('st');
      expect(u.searchParams.get('iss')).toBe(base);
      return u.searchParams.get('error');
    };
    expect(await redirectError({ code_challenge_method: 'plain' })).toBe('invalid_request');
    expect(await redirectError({ resource: 'https://other.example/mcp' })).toBe('invalid_target');
    expect(await redirectError({ response_type: 'token' })).toBe('unsupported_response_type');
    expect(await redirectError({}, 'deny')).toBe('access_denied');
  });

  it('the consent form is refused without its CSRF token', async () => {
    const { challenge } = pkcePair();
    const res = await browser.request('/dashboard/oauth/authorize', {
      form: {
        decision: 'approve',
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
    });
    expect(res.status).toBe(403);
  });
});

describe('token lifecycle', () => {
  it('an expired access token is refused with invalid_token', async () => {
    const { tokens } = await codeFlow(base, browser, client);
    await svc.deps.sql`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'access' AND created_at > now() - interval '1 minute'`;
    const res = await callProbe(tokens.body.access_token);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
  });

  it('refresh rotates; replaying a rotated refresh token revokes the whole family', async () => {
    const { tokens } = await codeFlow(base, browser, client);
    const refresh = (rt: string) =>
      tokenRequest(base, { grant_type: 'refresh_token', refresh_token: rt, client_id: client.client_id, resource: `${base}/mcp` });
    const second = await refresh(tokens.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await callProbe(second.body.access_token)).status).toBe(200);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);

    const replay = await refresh(tokens.body.refresh_token);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await callProbe(third.body.access_token)).status).toBe(401);
    expect((await refresh(third.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('revocation (RFC 7009): an access token alone, a refresh token with its family; unknown tokens answer 200', async () => {
    const revoke = (token: string) =>
      fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: client.client_id }),
      });
    const a = await codeFlow(base, browser, client);
    expect((await revoke(a.tokens.body.access_token)).status).toBe(200);
    expect((await callProbe(a.tokens.body.access_token)).status).toBe(401);
    const b = await codeFlow(base, browser, client);
    expect((await revoke(b.tokens.body.refresh_token)).status).toBe(200);
    expect((await callProbe(b.tokens.body.access_token)).status).toBe(401);
    expect((await revoke('hr_at_unknown')).status).toBe(200);
  });

  it('a token issued for this service under another name (another resource) is refused', async () => {
    const { tokens } = await codeFlow(base, browser, client);
    const otherName = base.replace('127.0.0.1', 'localhost');
    const res = await callProbe(tokens.body.access_token, otherName);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain(`resource_metadata="${otherName}/.well-known/oauth-protected-resource/mcp"`);
    expect(res.body).toEqual({ detail: 'Token was not issued for this resource' });
    expect((await callProbe(tokens.body.access_token)).status).toBe(200);
  });

  it('disconnecting the app in the dashboard stops its tokens at once', async () => {
    const { tokens } = await codeFlow(base, browser, client);
    const page = await browser.request('/dashboard/apps');
    const grant = /name="grant" value="([^"]+)"/.exec(page.text)![1];
    const _csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    expect(await browser.request('/dashboard/apps/revoke', { form: { _csrf, grant } })).toMatchObject({
      status: 303,
      location: '/dashboard/apps?notice=revoked',
    });
    expect((await callProbe(tokens.body.access_token)).status).toBe(401);
    expect((await browser.request('/dashboard/apps')).text).toContain('No app is connected');
  });
});

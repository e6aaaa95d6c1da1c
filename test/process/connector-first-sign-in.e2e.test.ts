import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountForSignIn } from '../../src/doors/dashboard/accounts.js';
import { createAccountKey } from '../../src/doors/dashboard/api-key.js';
import { hasChromium, SHOTS } from '../helpers/chromium.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { freePort } from '../helpers/free-port.js';
import { runEntry } from '../helpers/spawn-service.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { waitFor } from '../helpers/wait.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const NEW_PASSWORD = 'copper kettle under the stairs';

/**
 * The first connection of a brand-new account, as a desktop host makes it: the host launches
 * `npx mcp-remote <url>/mcp` over stdio; mcp-remote meets the 401, registers itself and opens the
 * authorization URL with the system opener, which runs $BROWSER (here headless Chromium driven as
 * a person would: connector-browser.ts). The account was made by `npm run accounts` with a
 * temporary password: sign-in, the forced password change and the consent page follow one
 * another without losing the authorization request, the client lists the tools and calls one,
 * and the call shows in the account's own usage and history, labelled with the app.
 */
describe.skipIf(!hasChromium)(`mcp-remote connects a new account with a temporary password${hasChromium ? '' : ' [SKIPPED: chromium not installed]'}`, () => {
  let svc: TestService;
  let dir: string;
  let client: Client | undefined;

  beforeAll(async () => {
    svc = await startTestService();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-'));
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await client?.close();
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs in, changes its password, consents; the client lists tools and calls one, which counts in the account’s usage', { timeout: 240_000 }, async () => {
    const email = 'desktop-user@example.com';
    const created = await runEntry('src/cli/accounts.ts', ['create', '--email', email, '--plan', 'starter'], {
      DATABASE_URL: svc.deps.config.DATABASE_URL,
      LOG_LEVEL: 'silent',
    });
    expect(created.code).toBe(0);
    const [, temporary] = /shown once[^\n]*\n(\S+)\n$/.exec(created.stdout)!;

    // what the system opener runs: $BROWSER <url>
    const log = path.join(dir, 'browser.log');
    const opener = path.join(dir, 'browser.sh');
    fs.writeFileSync(
      opener,
      `#!/bin/sh\nexec "${process.execPath}" --import "${import.meta.resolve('tsx')}" "${path.join(REPO, 'test/helpers/connector-browser.ts')}" "$@"\n`,
      { mode: 0o755 },
    );

    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['mcp-remote', `${svc.url}/mcp`, String(await freePort()), '--auth-timeout', '120'],
      cwd: REPO,
      env: {
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        HOME: dir,
        MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth'),
        npm_config_offline: 'true',
        BROWSER: opener,
        CONNECTOR_EMAIL: email,
        CONNECTOR_PASSWORD: temporary,
        CONNECTOR_NEW_PASSWORD: NEW_PASSWORD,
        CONNECTOR_LOG: log,
        CONNECTOR_SHOTS: SHOTS,
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'desktop-host', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 180_000 });
    } catch (err) {
      throw new Error(
        `mcp-remote did not connect: ${(err as Error).message}\n${stderr.slice(-3000)}\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}`,
        { cause: err },
      );
    }

    // the browser went sign-in → password change → consent → the client's callback, the request carried through;
    // mcp-remote has the code as the callback request arrives, before that page's load is logged: wait for its line
    const readSteps = () =>
      fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { step: string; url: string });
    const steps = await waitFor(async () => (['callback', 'failed'].includes(readSteps().at(-1)?.step ?? '') ? readSteps() : null), {
      timeoutMs: 30_000,
      what: 'the browser to log its last step',
    });
    expect(steps.map((s) => s.step)).toEqual(['sign-in', 'password', 'consent', 'callback']);
    const consent = new URL(steps[2].url);
    expect(consent.pathname).toBe('/dashboard/oauth/authorize');
    expect(consent.searchParams.get('response_type')).toBe('code');
    expect(new URL(steps[1].url).searchParams.get('next')).toMatch(/^\/dashboard\/oauth\/authorize\?/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_credit_balance');
    const result = await client.callTool({ name: 'get_credit_balance', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ plan: { code: 'starter' } });
    const requestId = (result._meta as { request_id: string }).request_id;
    await client.close();
    client = undefined;

    // the call counts in the account's usage and history, read with the account's own key, labelled with the app
    const account = (await accountForSignIn(svc.deps.sql, email))!;
    const key = await createAccountKey(svc.deps.sql, account);
    if (!key.ok) throw new Error(key.reason);
    const usage = (await (await svc.call('/v1/usage?period=24h', { key: key.key.key })).json()) as { by_endpoint: unknown[]; by_app: unknown[] };
    expect(usage.by_endpoint).toContainEqual(expect.objectContaining({ method: 'MCP', path: 'get_credit_balance', requests: 1 }));
    expect(usage.by_app).toEqual([
      { app: { client_id: expect.stringMatching(/^mcpc_/), name: 'MCP CLI Proxy' }, requests: expect.any(Number), errors: 0, credits: 0 },
    ]);
    const record = (await (await svc.call(`/v1/requests/${requestId}`, { key: key.key.key })).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ id: requestId, method: 'MCP', path: 'get_credit_balance', status: 200, app: { name: 'MCP CLI Proxy' } });

    // and in the dashboard, with the password the browser chose
    const b = new FormBrowser(svc.url);
    expect(await b.signIn(email, NEW_PASSWORD)).toMatchObject({ status: 303, location: '/dashboard/api' });
    const page = await b.request('/dashboard/usage?period=24h');
    expect(page.text).toContain('<code>MCP get_credit_balance</code>');
    expect(page.text).toContain('<span class="badge">app</span> MCP CLI Proxy');
  });
});

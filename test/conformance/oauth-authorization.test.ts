import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { approveInBrowser, hasChromium, launchChromium } from '../helpers/oauth-browser.js';
import { registerClient, signedInAccount } from '../helpers/oauth-flow.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { conformanceToolchain, SUITE_PACKAGE } from './toolchain.js';

/** The official suite on its Node 22, fetched as for the /mcp server scenarios (required in CI, like those). */
const toolchain = await conformanceToolchain();
if ('unavailable' in toolchain && process.env.CI) throw new Error(`conformance suite required in CI: ${toolchain.unavailable}`);
const ready = hasChromium && !('unavailable' in toolchain);
const why = 'unavailable' in toolchain ? toolchain.unavailable : 'chromium not installed';

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let svc: TestService;
let browser: Browser;

describe.skipIf(!ready)(`MCP conformance suite (${SUITE_PACKAGE}): authorization server scenarios${ready ? '' : ` [SKIPPED: ${why}]`}`, () => {
  beforeAll(async () => {
    svc = await startTestService();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('passes authorization-server-metadata-endpoint and authorization-code-grant with a registered client', async () => {
    const account = await signedInAccount(svc.deps.sql, svc.url, 'conformance@example.com');
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const client = await registerClient(svc.url, { client_name: 'MCP conformance suite', redirect_uris: [redirect], token_endpoint_auth_method: 'none' });
    const out = mkdtempSync(path.join(os.tmpdir(), 'oauth-conformance-'));
    const { node, cli } = toolchain as { node: string; cli: string };
    const args = [
      cli,
      'authorization',
      '--url',
      svc.url,
      '--client-id',
      client.body.client_id,
      '--port',
      String(port),
      '--resource',
      `${svc.url}/mcp`,
      '--output-dir',
      out,
    ];
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const authorizationUrl = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const m = new RegExp(`^(${svc.url.replace(/[.]/g, '\\.')}/dashboard/oauth/authorize\\?\\S+)$`, 'm').exec(output);
        if (m) resolve(m[1]);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (d) => (output += d));
      void exited.then(() => reject(new Error(`the suite ended before asking for authorization:\n${output}`)));
    });
    const page = await browser.newPage();
    await approveInBrowser(page, authorizationUrl, account, redirect);
    const code = await exited;
    const checks: Check[] = readdirSync(out, { recursive: true })
      .filter((f) => String(f).endsWith('checks.json'))
      .flatMap((f) => JSON.parse(readFileSync(path.join(out, String(f)), 'utf8')) as Check[]);
    rmSync(out, { recursive: true, force: true });
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['authorization-server-metadata']?.status, output).toBe('SUCCESS');
    expect(byId['authorization-server-metadata-cimd']?.status, output).toBe('SUCCESS');
    expect(byId['authorization-code-grant']?.status, JSON.stringify(byId['authorization-code-grant'])).toBe('SUCCESS');
    expect(checks.filter((c) => c.status === 'FAILURE')).toEqual([]);
    expect(code, output).toBe(0);
  });
});

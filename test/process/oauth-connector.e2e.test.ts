import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { TOOLS } from '../../tools/index.js';
import { approveInBrowser, hasChromium, launchChromium } from '../helpers/oauth-browser.js';
import { signedInAccount } from '../helpers/oauth-flow.js';
import { SHOTS } from '../helpers/chromium.js';
import { PROBES } from '../helpers/probe-tools.js';
import { spawnServer, type Spawned } from '../helpers/spawn-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

type ProviderState = Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0];
type Stored = Parameters<OAuthClientProvider['saveTokens']>[0];
type StoredClient = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];

/** What a desktop MCP client keeps between the two legs of the flow; `authorizationUrl` is what it would open in a browser. */
class LoopbackClientProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: StoredClient | undefined;
  #tokens: Stored | undefined;
  #verifier = '';
  #discovery: ProviderState | undefined;
  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}
  get clientMetadata() {
    return {
      client_name: 'Loopback MCP client',
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation = () => this.#client;
  saveClientInformation = (c: StoredClient) => void (this.#client = c);
  tokens = () => this.#tokens;
  saveTokens = (t: Stored) => void (this.#tokens = t);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.#verifier = v);
  codeVerifier = () => this.#verifier;
  saveDiscoveryState = (s: ProviderState) => void (this.#discovery = s);
  discoveryState = () => this.#discovery;
  get clientId() {
    return this.#client?.client_id;
  }
}

/** The client's loopback redirect target: answers the browser and hands the callback's parameters over. */
async function loopbackCallback() {
  let deliver!: (params: URLSearchParams) => void;
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.end('You can close this window.');
    if (url.pathname === '/callback') deliver(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { redirectUrl, received, close: () => server.close() };
}

/**
 * The MCP SDK client's own OAuth flow against /mcp, the way a connector app runs it: it meets the
 * 401, discovers the metadata, registers (or uses its metadata-document id), sends the user to the
 * authorization URL, receives the code on its loopback redirect and exchanges it; then lists the
 * tools and calls one.
 */
async function connectWithOAuth(browser: Browser, mcpUrl: string, account: { email: string; password: string }, clientMetadataUrl?: string) {
  mkdirSync(SHOTS, { recursive: true });
  const callback = await loopbackCallback();
  const provider = new LoopbackClientProvider(callback.redirectUrl, clientMetadataUrl);
  try {
    const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'connector', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
    const page = await browser.newPage();
    await approveInBrowser(
      page,
      provider.authorizationUrl!.href,
      account,
      callback.redirectUrl,
      path.join(SHOTS, `oauth-consent-${clientMetadataUrl ? 'cimd' : 'dcr'}.png`),
    );
    await first.finishAuth(await callback.received);
    const client = new Client({ name: 'connector', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    return { client, provider, page };
  } finally {
    callback.close();
  }
}

describe.skipIf(!hasChromium)(
  `MCP SDK client OAuth flow with the dashboard in headless Chromium${hasChromium ? '' : ' [SKIPPED: chromium not installed]'}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(() => browser?.close());

    describe('dynamic client registration', () => {
      let svc: TestService;
      beforeAll(async () => {
        svc = await startTestService({}, { tools: [...TOOLS, ...PROBES] });
      });
      afterAll(() => svc?.close());

      it('connects by URL alone, lists tools and calls one metered to the approving account', async () => {
        const other = await svc.key({ plan: 'starter' });
        const account = await signedInAccount(svc.deps.sql, svc.url, 'connector@example.com');
        const { client, provider, page } = await connectWithOAuth(browser, `${svc.url}/mcp`, account);
        expect(provider.clientId).toMatch(/^mcpc_/);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_credit_balance', 'search_hotels', 'probe_metered']));
        const result = await client.callTool({ name: 'probe_metered', arguments: { items: 2 } });
        expect(result.structuredContent).toEqual({ items: [0, 1] });
        const requestId = (result._meta as { request_id: string }).request_id;
        const [charge] = await svc.deps.sql`SELECT account_id, amount FROM credit_ledger WHERE request_id = ${requestId} AND kind = 'charge'`;
        expect(charge).toEqual({ account_id: account.accountId, amount: -5 });
        expect(charge.account_id).not.toBe(other.account_id);

        // The signed-in user sees the app and its call in the dashboard.
        await page.goto(`${svc.url}/dashboard/apps`);
        await expect(page.locator('table').first().textContent()).resolves.toContain('Loopback MCP client');
        await expect(page.locator('table').nth(1).textContent()).resolves.toContain(requestId);
        await page.screenshot({ path: path.join(SHOTS, 'oauth-connected-apps.png'), fullPage: true });
        await client.close();
      });
    });

    describe('client ID metadata document', () => {
      let db: TestDatabase;
      let server: Spawned;
      let sql: Sql;
      let doc: https.Server;
      let dir: string;
      beforeAll(async () => {
        // The document is served over HTTPS from loopback, with a certificate the service is told to trust.
        dir = mkdtempSync(path.join(os.tmpdir(), 'cimd-'));
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-keyout',
            `${dir}/key.pem`,
            '-out',
            `${dir}/cert.pem`,
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-addext',
            'subjectAltName=IP:127.0.0.1',
          ],
          { stdio: 'ignore' },
        );
        doc = https.createServer({ key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) });
        await new Promise<void>((resolve) => doc.listen(0, '127.0.0.1', resolve));
        db = await createTestDatabase();
        server = await spawnServer({
          DATABASE_URL: db.url,
          PORT: '0',
          HOST: '127.0.0.1',
          BOOTSTRAP_KEY: 'false',
          RUN_WORKER: 'false',
          SAFE_FETCH_ALLOW_PRIVATE: 'true',
          NODE_EXTRA_CA_CERTS: `${dir}/cert.pem`,
          LOG_LEVEL: 'warn',
        });
        sql = createSql(db.url, { max: 2 });
      });
      afterAll(async () => {
        server?.child.kill('SIGTERM');
        await server?.exited;
        await sql?.end();
        doc?.close();
        await db?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('uses its HTTPS client id: the service fetches the document, names the client on the consent page, and issues tokens', async () => {
        const callbackHint = 'http://127.0.0.1/callback';
        const clientId = `https://127.0.0.1:${(doc.address() as AddressInfo).port}/oauth/client.json`;
        doc.on('request', (req, res) => {
          if (req.url !== '/oauth/client.json') return void res.writeHead(404).end();
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
          res.end(
            JSON.stringify({ client_id: clientId, client_name: 'Metadata-document client', redirect_uris: [callbackHint], token_endpoint_auth_method: 'none' }),
          );
        });
        const account = await signedInAccount(sql, server.url, 'cimd@example.com');
        const { client, provider } = await connectWithOAuth(browser, `${server.url}/mcp`, account, clientId);
        expect(provider.clientId).toBe(clientId);
        const result = await client.callTool({ name: 'get_credit_balance', arguments: {} });
        expect(result.isError).toBeFalsy();
        const requestId = (result._meta as { request_id: string }).request_id;
        const [row] = await sql`
        SELECT k.account_id, c.client_name, c.registration FROM request_history h JOIN oauth_grants g ON g.key_id = h.key_id
        JOIN api_keys k ON k.id = h.key_id JOIN oauth_clients c ON c.client_id = g.client_id WHERE h.id = ${requestId}`;
        expect(row).toEqual({ account_id: account.accountId, client_name: 'Metadata-document client', registration: 'metadata_document' });
        await client.close();
      });
    });
  },
);

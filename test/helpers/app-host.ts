/**
 * The MCP Apps harness every app test shares: a page on a loopback server whose script is the
 * SDK's host side (app-host-page.ts, bundled here once per process), one Chromium per test file,
 * and what a test checks of a rendered app: console errors, requests to any other host, axe-core's
 * serious and critical violations, screenshots in light and dark at a phone's and a desktop's width.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getToolUiResourceUri, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Browser, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MountOptions } from './app-host-page.js';
import { launchChromium, screenshot } from './browser.js';
import { startTestService, type TestService } from './test-service.js';
import type { ReplayServer } from '../replay/server.js';

export const WIDTHS = [1280, 360] as const;
export const THEMES = ['light', 'dark'] as const;

async function hostPage(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, 'app-host-page.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body{margin:0;padding:16px;background:#f0eee6;font-family:system-ui}body[data-theme=dark]{background:#1f1e1d}iframe{display:block;width:100%;height:200px;border:1px solid #8884;border-radius:12px;background:transparent}</style>
</head><body><div id="apps"></div><script>${out.outputFiles[0].text.replaceAll('</script', '<\\/script')}</script></body></html>`;
}

export interface AppHost {
  browser: Browser;
  url: string;
  /** The app rendered from its resource and a tool result, on a fresh page; resolves once it rendered. */
  open(opts: MountOptions & { width: number; client?: Client }): Promise<RenderedApp>;
  close(): Promise<void>;
}

export interface RenderedApp {
  page: Page;
  frame: Frame;
  /** Console errors and uncaught exceptions, of the host page and the app. */
  errors: string[];
  /** Every request the page made to anything but the harness itself. */
  foreign: string[];
  /** Tool calls the app made through the host, and links it asked the host to open. */
  calls: { name: string; arguments?: Record<string, unknown> }[];
  links: string[];
  /** Images loaded from the hosts the app's CSP declares (answered by the harness). */
  images: string[];
  shot(name: string): Promise<void>;
  /** axe-core's serious and critical violations in the app's frame. */
  axe(): Promise<{ id: string; impact: string; nodes: number }[]>;
}

/** An MCP client over HTTP that states the extension, as a host that renders apps does. */
async function connectAppsClient(serviceUrl: string, key: string): Promise<Client> {
  const client = new Client(
    { name: 'apps-host', version: '1.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serviceUrl}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

/** The page of a tool's app as a host gets it: the tool's `_meta.ui.resourceUri`, read over MCP, with its CSP metadata. */
export async function readAppPage(client: Client, toolName: string): Promise<{ html: string; csp: McpUiResourceCsp }> {
  const tool = (await client.listTools()).tools.find((t) => t.name === toolName)!;
  const read = await client.readResource({ uri: getToolUiResourceUri(tool)! });
  const content = read.contents[0] as unknown as { text: string; _meta: { ui: { csp: McpUiResourceCsp } } };
  return { html: content.text, csp: content._meta.ui.csp };
}

/** A chat host's scene for one tool's app: the service over a replay, an Apps client with a key, the app's page, the host in Chromium. */
export interface AppScene {
  replay: ReplayServer;
  svc: TestService;
  client: Client;
  page: { html: string; csp: McpUiResourceCsp };
  host: AppHost;
  /** Ends all of it (what started, when the scene did not start whole). */
  close(): Promise<void>;
}

/**
 * Sets up the scene every app test starts from: the service with `env` (its upstreams on `replay`),
 * an Apps client with a key (`key`: its options), `tool`'s app page, and the host.
 */
export async function startAppScene(o: {
  replay: ReplayServer;
  env: Record<string, string>;
  tool: string;
  key?: Parameters<TestService['key']>[0];
}): Promise<AppScene> {
  const parts: Partial<AppScene> = { replay: o.replay };
  const close = async () => {
    await parts.host?.close();
    await parts.client?.close();
    await parts.svc?.close();
    await parts.replay?.close();
  };
  try {
    parts.svc = await startTestService(o.env);
    parts.client = await connectAppsClient(parts.svc.url, (await parts.svc.key(o.key)).key);
    parts.page = await readAppPage(parts.client, o.tool);
    parts.host = await startAppHost();
    return { ...(parts as Omit<AppScene, 'close'>), close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

/** What every rendered app must be: nothing wider than its frame, no serious axe finding, no console error, no foreign request; its screenshot. */
export async function expectShown(app: RenderedApp, shot: string): Promise<void> {
  await app.shot(shot);
  const wider = await app.frame.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.scroll'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(el.getBoundingClientRect().right)} > ${window.innerWidth}`),
  );
  expect(wider).toEqual([]);
  expect(await app.frame.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await app.axe()).toEqual([]);
  expect(app.errors).toEqual([]);
  expect(app.foreign).toEqual([]);
}

/** A 4×3 picture in two colours, what the harness answers for a declared image host. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAFUlEQVR4nGOYs+MaEHnl9wMRA04OAKA6FK255+P3AAAAAElFTkSuQmCC', 'base64');

const AXE_SOURCE = (await import('axe-core')).default.source;

export async function startAppHost(): Promise<AppHost> {
  const html = await hostPage();
  const server = http.createServer((req, res) => {
    // the page, and nothing for the browser's own favicon request (a 404 would be a console error)
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // the app's sandboxed frame in the page's own renderer: Chromium otherwise puts sandboxed frames in
  // a process of their own, whose requests Playwright's routes do not always see and whose content
  // below the viewport a full-page screenshot leaves unpainted
  const browser = await launchChromium(['--disable-features=IsolateSandboxedIframes']);
  return {
    browser,
    url,
    async open({ width, client, ...mount }) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: mount.theme });
      const rendered: RenderedApp = {
        page,
        frame: null as unknown as Frame,
        errors: [],
        foreign: [],
        calls: [],
        links: [],
        images: [],
        shot: async (name) => {
          // a viewport as tall as the page: Chromium paints none of a sandboxed (out-of-process) frame below the viewport
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          if (height > 900) await page.setViewportSize({ width, height });
          await screenshot(page, name);
          if (height > 900) await page.setViewportSize({ width, height: 900 });
        },
        axe: async () => {
          await rendered.frame.evaluate(AXE_SOURCE);
          const result = await rendered.frame.evaluate(() =>
            (
              window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }
            ).axe.run(document, {
              resultTypes: ['violations'],
            }),
          );
          return result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
        },
      };
      // the hosts its CSP declares for images (an app's upstream thumbnails) answer a small picture, and are not foreign
      const declared = (mount.csp.resourceDomains ?? []).map(
        (origin) => new RegExp(`^${origin.replaceAll('.', '\\.').replace('://*\\.', '://[a-z0-9-]+\\.')}/`),
      );
      if (declared.length)
        await page.context().route(
          (u) => declared.some((d) => d.test(u.href)),
          (route) => {
            rendered.images.push(route.request().url());
            return route.fulfill({ contentType: 'image/png', body: PICTURE });
          },
        );
      page.on('console', (m) => m.type() === 'error' && rendered.errors.push(`${m.text()} ${m.location().url}`.trim()));
      page.on('pageerror', (e) => rendered.errors.push(String(e)));
      page.on('request', (r) => {
        const u = r.url();
        if (!u.startsWith(url) && !u.startsWith('about:') && !u.startsWith('data:') && !declared.some((d) => d.test(u))) rendered.foreign.push(u);
      });
      await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
        rendered.calls.push(params);
        if (!client) throw new Error('this test host has no server');
        return client.callTool(params);
      });
      await page.exposeFunction('hostOpenLink', (link: string) => void rendered.links.push(link));
      await page.goto(url);
      await page.evaluate((opts) => window.mountApp(opts), mount);
      const frame = await (await page.waitForSelector('iframe')).contentFrame();
      rendered.frame = frame!;
      await rendered.frame.waitForSelector('body[data-rendered="true"]');
      // the frame fitted to the height the app reported for its rendered page (no scroll bar inside it)
      const height = await rendered.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      await page.waitForFunction((h) => Math.abs(document.querySelector('iframe')!.clientHeight - h) <= 1, height);
      return rendered;
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

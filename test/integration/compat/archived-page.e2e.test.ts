import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, hasChromium, launchChromium, skippedNote } from '../../helpers/browser.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { page as recordedPage, PAGES } from '../../fixtures/hotels-payloads.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-03-10');

/**
 * A script inside an archived upstream page (html_url) never runs on this origin, where the
 * dashboard lives and where the URL carries an api_key: a browser downloads the page instead of
 * opening it, and even rendered (the download header taken away) the sandbox policy stops every
 * script. A control render without our headers shows the marker script does run otherwise.
 */
const suite = fixtureSuite(`archived pages are inert in Chromium${skippedNote}`, PAGES.tokyo);
const MARKER = `<script>document.title = 'SCRIPT RAN'; document.documentElement.setAttribute('data-ran', location.search);</script>`;

describe.skipIf(!hasChromium)(suite.title, BROWSER_SUITE, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let archiveUrl: string;
  let served: string;

  beforeAll(async () => {
    // the recorded results page (24 scripts of its own), with one more that leaves a visible trace
    served = recordedPage(PAGES.tokyo).replace('<head>', `<head>${MARKER}`);
    expect(served).toContain(MARKER);
    replay = await startReplayServer([{ path: '/travel/search', body: served, headers: { 'content-type': 'text/html; charset=utf-8' } }]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0' });
    const key = (await svc.key()).key;
    const search = await fetch(
      S.text(`${svc.url}/api/v1/search?engine=google_hotels&q=Tokyo&check_in_date=2026-08-11&check_out_date=2026-08-13&api_key=${key}`),
    );
    expect(search.status).toBe(200);
    const meta = ((await search.json()) as { search_metadata: { html_url: string } }).search_metadata;
    archiveUrl = `${meta.html_url}?api_key=${key}`;
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await replay?.close();
  });

  /** What the page's scripts changed, read from outside them. */
  const traces = (page: Page) => page.evaluate(() => ({ title: document.title, ran: document.documentElement.getAttribute('data-ran') }));

  it('opening html_url downloads the page; nothing of it runs or renders on this origin', async () => {
    const page = await context.newPage();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.goto(archiveUrl).catch((err: Error) => expect(err.message).toContain('Download is starting')),
    ]);
    expect(download.suggestedFilename()).toMatch(/^req_[A-Za-z0-9]+\.html$/);
    // the file is the upstream page as received, marker script included
    expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(served);
    expect(page.url()).toBe('about:blank');
    await page.close();
  });

  it('rendered anyway (the download header taken away), the sandbox policy runs none of its scripts', async () => {
    const page = await context.newPage();
    await page.route('**/api/v1/searches/**', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-disposition'];
      await route.fulfill({ response, headers });
    });
    const blocked: string[] = [];
    page.on('console', (m) => blocked.push(m.text()));
    await page.goto(archiveUrl);
    expect(await traces(page)).toEqual({ title: expect.not.stringContaining('SCRIPT RAN'), ran: null });
    expect(blocked.some((t) => /sandboxed and the 'allow-scripts' permission is not set|Content Security Policy/.test(t))).toBe(true);
    await page.close();
  });

  it('control: the same bytes without our headers do run the marker script', async () => {
    const page = await context.newPage();
    await page.route('**/api/v1/searches/**', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ status: 200, contentType: 'text/html', body: await response.text() });
    });
    await page.goto(archiveUrl, { waitUntil: 'domcontentloaded' });
    expect(await traces(page)).toMatchObject({ title: 'SCRIPT RAN', ran: expect.stringContaining('api_key=sk_') });
    await page.close();
  });
});

import type { BrowserContext, Page } from 'playwright-core';
import { ApiError, DependencyDown, UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { detectBlock } from '../../upstream/blocked.js';
import { acceptLanguage, deviceHeaders } from '../../upstream/devices.js';
import { keepSessionReply } from '../../upstream/diagnostics.js';
import type { SourceUses } from '../context.js';
import { parseJobCards, type JobCard } from './parse-cards.js';

/** After the load event: how long the card list may take to appear, then its first card. */
const LIST_WAIT_MS = 3_000;
const CARD_WAIT_MS = 1_500;
const CARD_SELECTOR = '.PwjeAc';
const LIST_SELECTOR = '.gws-plugins-horizon-jobs__tl-lvc';

/** Cards render client-side: wait for a card, or for the list and then briefly for its first card. */
async function waitForCards(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  const seen = await page.waitForSelector(`${CARD_SELECTOR}, ${LIST_SELECTOR}`, { timeout: Math.min(LIST_WAIT_MS, timeoutMs) }).catch(() => null);
  if (seen && !(await page.$(CARD_SELECTOR))) {
    await page.waitForSelector(CARD_SELECTOR, { timeout: Math.min(CARD_WAIT_MS, timeoutMs) }).catch(() => undefined);
  }
}

/** The search engine's job-card view of a query (`ibp=htl;jobs`), relative to its base URL. */
function jobSearchPath(input: { q: string; gl: string; hl: string }): string {
  // The `;` of ibp stays literal, as the engine's own links write it.
  return `/search?q=${encodeURIComponent(input.q)}&ibp=htl;jobs&hl=${encodeURIComponent(input.hl)}&gl=${encodeURIComponent(input.gl)}`;
}

export interface JobSearchAnswer {
  jobs: JobCard[];
  wire_bytes: number;
}

/** Renders the job-card view in the headless browser and reads the cards from the rendered DOM. */
/**
 * What the rendered search uses: the browser, and the upstream scope for the operation whose
 * session a changed page is kept under.
 */
type JobSearchContext = SourceUses<'jobsBrowser' | 'upstream', 'UPSTREAM_TIMEOUT_MS' | 'CHROMIUM_PATH' | 'upstreamHosts' | 'dataDir'>;

export async function fetchJobCards(deps: JobSearchContext, input: { q: string; gl: string; hl: string }): Promise<JobSearchAnswer> {
  const timeoutMs = deps.config.UPSTREAM_TIMEOUT_MS;
  const browser = await deps.jobsBrowser.get(deps.config.CHROMIUM_PATH, timeoutMs);
  let context: BrowserContext;
  try {
    context = await browser.newContext({
      userAgent: deviceHeaders('desktop', input.gl.toUpperCase(), 'html')['user-agent'],
      locale: input.hl,
      extraHTTPHeaders: { 'accept-language': acceptLanguage(input.gl.toUpperCase()) },
    });
  } catch (err) {
    throw new DependencyDown(`headless browser unavailable: ${(err as Error).name ?? 'Error'}`);
  }
  try {
    const page = await context.newPage();
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (req) =>
      sizes.push(
        req.sizes().then(
          (s) => s.responseBodySize,
          () => 0,
        ),
      ),
    );
    const url = deps.config.upstreamHosts.metasearch + jobSearchPath(input);
    let response;
    try {
      response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    } catch (err) {
      throw new UpstreamFailed(`BrowserNavigation${(err as Error).name === 'TimeoutError' ? 'Timeout' : 'Failed'}`);
    }
    const status = response?.status() ?? 0;
    const first = await page.content();
    const blocked = detectBlock({ status, url: page.url(), headers: response?.headers() ?? {}, body: first, expect: 'html' });
    if (blocked) throw new UpstreamFailed(blocked.detail);
    if (status >= 400) throw new UpstreamFailed(`UpstreamHttp${status}`);
    await waitForCards(page, timeoutMs);
    const html = await page.content();
    let jobs: JobCard[];
    try {
      jobs = parseJobCards(html, { url: page.url() });
    } catch (err) {
      if (err instanceof UpstreamContractChanged) {
        await keepSessionReply(deps.config.dataDir, deps.upstream.session ?? undefined, 'jobsearch', html, {
          url: page.url(),
          status,
          reason: 'contract_changed',
          detail: err.message,
        });
      }
      throw err;
    }
    const wire = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    return { jobs, wire_bytes: wire };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new UpstreamFailed(`Browser${(err as Error).name ?? 'Error'}`);
  } finally {
    await context.close().catch(() => undefined);
  }
}

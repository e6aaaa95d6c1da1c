import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchJobCards } from '../../../tools/job-search.js';
import { DEFAULT_BROWSER_PATH } from '../../../src/sources/jobsearch/browser.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const PAGE = readFileSync(new URL('../../fixtures/webdata/job-cards-page.html', import.meta.url), 'utf8');
const EMPTY = '<html><body><div class="gws-plugins-horizon-jobs__tl-lvc"><ul></ul></div></body></html>';
const hasBrowser = existsSync(DEFAULT_BROWSER_PATH);

describe('job-card search without a browser', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ CHROMIUM_PATH: '/nonexistent/chromium' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('answers 503 with a clear detail, free', async () => {
    const key = (await svc.key()).key;
    const res = await svc.call('/v1/jobs/search', { key, body: { q: 'barista' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).detail).toBe(
      'headless browser not installed: no chromium executable at /nonexistent/chromium (CHROMIUM_PATH); install it with `apt-get install chromium` (README, "Browser path")',
    );
  });
});

describe.skipIf(!hasBrowser)(`job-card search in the headless browser${hasBrowser ? '' : ` [SKIPPED: no browser at ${DEFAULT_BROWSER_PATH}]`}`, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/search', query: { q: 'barista', ibp: 'htl;jobs' }, body: PAGE },
      { path: '/search', query: { q: 'nothing' }, body: EMPTY },
      {
        path: '/search',
        query: { q: 'blocked' },
        status: 429,
        body: '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>',
      },
      { path: '/search', query: { q: 'moved' }, body: '<html><body><div class="new-layout">jobs</div></body></html>' },
    ]);
    svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('reads the rendered cards, charged 3 credits', async () => {
    const res = await svc.call('/v1/jobs/search', { key, body: { q: 'barista', gl: 'us' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('3');
    const body = (await res.json()) as any;
    expect(() => searchJobCards.output.parse(body)).not.toThrow();
    expect(body.search_parameters).toEqual({ engine: 'jobs_search', q: 'barista', gl: 'us', hl: 'en' });
    expect(body.total).toBe(3);
    expect(body.jobs_results[0]).toEqual({
      title: 'Barista',
      company: 'Blue Bottle Coffee',
      location: 'Oakland, CA',
      via: 'LinkedIn',
      posted: '3 days ago',
      employment_type: 'Full-time',
      apply_options: [
        { source: 'LinkedIn', link: 'https://www.linkedin.com/jobs/view/3790011234' },
        { source: 'ZipRecruiter', link: 'https://www.ziprecruiter.com/c/Blue-Bottle-Coffee/Job/Barista/-in-Oakland,CA?jid=5f1a' },
      ],
    });
    expect(body.jobs_results[1]).toMatchObject({
      title: 'Shift Lead Barista',
      company: "Peet's Coffee",
      via: 'Indeed',
      posted: '22 hours ago',
      employment_type: 'Part-time',
      apply_options: [],
    });
    expect(body.jobs_results[2]).toMatchObject({
      posted: null,
      apply_options: [{ source: 'Hilton Careers', link: 'https://jobs.hilton.com/us/en/job/HOT0AC4K/coffee-bar-attendant' }],
    });
    expect(body.meta.wire_bytes).toBeGreaterThan(1000);
    const sent = replay.requests.find((r) => r.path === '/search')!;
    expect(sent.query).toMatchObject({ q: 'barista', ibp: 'htl;jobs', hl: 'en', gl: 'us' });
  });

  it('the compatible API’s google_jobs, as LangChain’s SearchApi wrapper sends it (Bearer key, engine and q): its `jobs`, no made-up description', async () => {
    const res = await fetch(`${svc.url}/api/v1/search?engine=google_jobs&q=barista`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).not.toHaveProperty('jobs_results');
    expect(body.jobs[0]).toEqual({
      position: 1,
      title: 'Barista',
      company_name: 'Blue Bottle Coffee',
      location: 'Oakland, CA',
      via: 'LinkedIn',
      detected_extensions: { posted_at: '3 days ago', schedule_type: 'Full-time' },
      apply_links: [
        { link: 'https://www.linkedin.com/jobs/view/3790011234', source: 'LinkedIn' },
        { link: 'https://www.ziprecruiter.com/c/Blue-Bottle-Coffee/Job/Barista/-in-Oakland,CA?jid=5f1a', source: 'ZipRecruiter' },
      ],
    });
    // the cards state no description; LangChain's text result falls through to its "No good search result found"
    expect(body.jobs.every((j: any) => !('description' in j))).toBe(true);
    expect(body.jobs[2]).not.toHaveProperty('detected_extensions.posted_at');
  });

  it('an empty list is free; a block page is 502; a page without the list is 503', async () => {
    const empty = await svc.call('/v1/jobs/search', { key, body: { q: 'nothing' } });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-credits-charged')).toBe('0');
    expect(((await empty.json()) as any).jobs_results).toEqual([]);
    const blocked = await svc.call('/v1/jobs/search', { key, body: { q: 'blocked' } });
    expect(blocked.status).toBe(502);
    expect(((await blocked.json()) as any).detail).toBe('UnusualTraffic');
    const moved = await svc.call('/v1/jobs/search', { key, body: { q: 'moved' } });
    expect(moved.status).toBe(503);
  });
});

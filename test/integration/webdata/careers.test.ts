import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCareersBoard, getCareersJobs } from '../../../tools/careers.js';
import { fixtureSuite, readFixtureJson } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const GH = 'ats/greenhouse-board-jobs-content-amplitude.json';
const LEVER = 'ats/lever-v0-postings-idealistconsulting.json';
const WORKABLE = 'ats/workable-widget-accounts-zaelab.json';
const SR = 'ats/smartrecruiters-v1-companies-knight-postings.json';
const WD_LIST = 'ats/workday-cxs-jobs-saputo-quality.json';
const WD_JOB = 'ats/workday-cxs-job-detail-bega.json';
const SR_POSTING = readFileSync(new URL('../../fixtures/webdata/smartrecruiters-posting.json', import.meta.url), 'utf8');
const WD_BASE = '/wd/wday/cxs/saputo/Saputo_External_Careers';

/** Company pages in the shapes careers pages take (board links, an iframe, a same-site careers link, nothing). */
const PAGES = {
  linked: `<html><body><h1>Join us</h1>
    <a href="https://jobs.lever.co/idealistconsulting/a24ec4e5-5caa-473d-abd4-b71f09a8167b">Consultant</a>
    <a href="https://jobs.lever.co/idealistconsulting">All roles</a>
    <iframe src="https://jobs.ashbyhq.com/HighlightTA/embed"></iframe></body></html>`,
  home: `<html><body><a href="/site/about">About</a><a href="/site/work-with-us">Work with us</a></body></html>`,
  workWithUs: `<html><body><iframe src="https://apply.workable.com/zaelab/"></iframe></body></html>`,
  bare: `<html><body><p>We are not hiring right now.</p></body></html>`,
  /** Lever's hosted board page links back to the company's own site. */
  leverAcme: `<html><head><title>Acme</title></head><body><div class="main-header-logo"><a href="https://www.acme.com/"><img alt="Acme logo"></a></div></body></html>`,
};

const suite = fixtureSuite('careers routes', GH, LEVER, WORKABLE, SR, WD_LIST, WD_JOB);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  const wdPaths = (readFixtureJson(WD_LIST).jobPostings as { externalPath: string }[]).slice(0, 2).map((p) => p.externalPath);

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/gh/v1/boards/amplitude/jobs', query: { content: 'false' }, fixture: GH },
      { path: '/gh/v1/boards/amplitude/jobs', query: { content: 'true' }, fixture: GH },
      { path: '/gh/v1/boards/amplitude', body: { name: 'Amplitude', content: '<p>Build the best product analytics.</p>' } },
      { path: '/gh/v1/boards/acme', body: { name: 'Acme Leisure Group', content: '' } },
      { path: '/lever/v0/postings/idealistconsulting', fixture: LEVER },
      { path: '/lever/v0/postings/acme', fixture: LEVER },
      { path: '/lever/v0/postings/nosuchco', status: 404, body: { ok: false, error: 'Document not found' } },
      { path: '/leverpage/acme', body: PAGES.leverAcme },
      { path: '/workable/api/v1/widget/accounts/zaelab', fixture: WORKABLE },
      { path: '/sr/v1/companies/knight/postings', query: { offset: '0' }, fixture: SR },
      { path: '/sr/v1/companies/knight/postings/743999671674844', body: SR_POSTING, headers: { 'content-type': 'application/json' } },
      { method: 'POST', path: `${WD_BASE}/jobs`, fixture: WD_LIST },
      ...wdPaths.map((p) => ({ path: `${WD_BASE}${p}`, fixture: WD_JOB })),
      { path: '/site/careers', body: PAGES.linked },
      { path: '/site/home', body: PAGES.home },
      { path: '/site/work-with-us', body: PAGES.workWithUs },
      { path: '/site/bare', body: PAGES.bare },
      { path: '/amp/careers', body: PAGES.bare },
      { path: '/acme/careers', body: PAGES.bare },
      { path: '/broken/careers', status: 503, body: 'down' },
    ]);
    const atsHosts = {
      'boards-api.greenhouse.io': `${replay.url}/gh`,
      'api.lever.co': `${replay.url}/lever`,
      'jobs.lever.co': `${replay.url}/leverpage`,
      'apply.workable.com': `${replay.url}/workable`,
      'api.smartrecruiters.com': `${replay.url}/sr`,
      'saputo.wd5.myworkdayjobs.com': `${replay.url}/wd`,
      'www.amplitude.com': `${replay.url}/amp`,
      'www.acme.com': `${replay.url}/acme`,
      'www.broken.com': `${replay.url}/broken`,
    };
    svc = await startTestService({ SAFE_FETCH_ALLOW_PRIVATE: 'true', UPSTREAM_RETRIES: '0', ATS_HOST_OVERRIDES: JSON.stringify(atsHosts) });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  const jobs = (body: unknown) => svc.call('/v1/careers/jobs', { key, body });

  it('reads a board URL without fetching a page; total is the board count, filters apply', async () => {
    const res = await jobs({ url: 'https://boards.greenhouse.io/amplitude', q: 'data scientist' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => getCareersJobs.output.parse(body)).not.toThrow();
    expect(body.company).toEqual({ name: 'Amplitude', ats: 'greenhouse', board: 'amplitude', board_url: 'https://job-boards.greenhouse.io/amplitude' });
    expect(body.total).toBe(37);
    expect(body.returned).toBe(1);
    expect(body.jobs[0]).toMatchObject({
      job_id: '8636903002',
      title: 'Customer Data Scientist - Experimentation',
      locations: ['London, UK'],
      ats: 'greenhouse',
    });
    expect(body.jobs[0]).not.toHaveProperty('description_text');
    expect(body.truncated).toBe(false);
    expect(body.meta).toMatchObject({ source: 'careers', detected_by: 'page', pages_fetched: 0, scanned: 2, matched: 1, upstream_requests: 1 });
  });

  it('finds the board a careers page names most often; descriptions on request', async () => {
    const res = await jobs({ url: `${replay.url}/site/careers`, include_description: true, limit: 1 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.company).toMatchObject({ ats: 'lever', board: 'idealistconsulting' });
    expect(body.jobs).toHaveLength(1);
    expect(body.jobs[0].title).toBe('(1099 Contract) Nonprofit Salesforce Consultant: Enterprise Project Manager');
    expect(body.jobs[0].description_text).toContain("How You'll Contribute");
    expect(body.truncated).toBe(true);
    expect(body.meta).toMatchObject({ detected_by: 'page', pages_fetched: 1, scanned: 2, matched: 2, upstream_requests: 2 });

    const detect = await svc.call('/v1/careers/detect', { key, body: { url: `${replay.url}/site/careers` } });
    expect(detect.status).toBe(200);
    expect(detect.headers.get('x-credits-charged')).toBe('1');
    const d = (await detect.json()) as any;
    expect(() => detectCareersBoard.output.parse(d)).not.toThrow();
    expect(d.company).toEqual({ ats: 'lever', board: 'idealistconsulting', board_url: 'https://jobs.lever.co/idealistconsulting' });
    expect(d.candidates).toEqual([{ ats: 'ashby', board: 'HighlightTA', board_url: 'https://jobs.ashbyhq.com/HighlightTA' }]);
    expect(d.meta).not.toHaveProperty('board_probes');
  });

  it('follows a same-site careers link when the first page names no board', async () => {
    const res = await jobs({ url: `${replay.url}/site/home` });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.company).toEqual({ name: 'Zaelab', ats: 'workable', board: 'zaelab', board_url: 'https://apply.workable.com/zaelab/' });
    expect(body.jobs.map((j: any) => j.job_id)).toEqual(['DD136DD7E7']);
    expect(body.meta.pages_fetched).toBe(2);
  });

  it('falls back to the domain-named board only when the system confirms the same company', async () => {
    const amp = await svc.call('/v1/careers/detect', { key, body: { url: 'https://www.amplitude.com/careers' } });
    expect(amp.status).toBe(200);
    expect((await amp.json()) as any).toMatchObject({
      company: { ats: 'greenhouse', board: 'amplitude' },
      detected_by: 'domain',
      meta: { pages_fetched: 1, board_probes: [{ ats: 'greenhouse', board: 'amplitude', outcome: 'confirmed' }] },
    });
    const acme = await jobs({ url: 'https://www.acme.com/careers' });
    expect(acme.status).toBe(200);
    const body = (await acme.json()) as any;
    expect(body.company).toMatchObject({ ats: 'lever', board: 'acme' });
    expect(body.meta.detected_by).toBe('domain');
    const detect = (await (await svc.call('/v1/careers/detect', { key, body: { url: 'https://www.acme.com/careers' } })).json()) as any;
    expect(detect.meta.board_probes).toEqual([
      { ats: 'greenhouse', board: 'acme', outcome: 'different_company' },
      { ats: 'lever', board: 'acme', outcome: 'confirmed' },
    ]);
  });

  it('422 with the supported systems when nothing is found, free', async () => {
    const res = await jobs({ url: `${replay.url}/site/bare` });
    expect(res.status).toBe(422);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    const detail = ((await res.json()) as any).detail;
    expect(typeof detail).toBe('string');
    expect(detail).toContain('Greenhouse, Lever, Ashby, Workable, SmartRecruiters, Workday, Recruitee, Teamtailor');
  });

  it('404 when the system says the board does not exist, 502 when the page fails, 422 for a host that does not exist', async () => {
    const missing = await jobs({ url: 'https://jobs.lever.co/nosuchco' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).detail).toBe('Lever says the board nosuchco does not exist');
    const broken = await jobs({ url: 'https://www.broken.com/careers' });
    expect(broken.status).toBe(502);
    const nowhere = await jobs({ url: 'no-such-host.invalid/careers' });
    expect(nowhere.status).toBe(422);
    expect(((await nowhere.json()) as any).detail).toBe('url host no-such-host.invalid does not resolve');
  });

  it('pages SmartRecruiters and reads each returned posting for its description', async () => {
    const res = await jobs({ url: 'https://jobs.smartrecruiters.com/knight', include_description: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.total).toBe(1);
    expect(body.jobs[0]).toMatchObject({ job_id: '743999671674844', ats: 'smartrecruiters' });
    expect(body.jobs[0].description_text).toBe(
      'Company Description\nWe staff care homes.\n\nJob Description\nConsistent hours\nStart next week\n\nQualifications\nActive CNA or LPN license.',
    );
    expect(body.meta.upstream_requests).toBe(2);
  });

  it('pages Workday until the limit matches, one detail request per returned job, truncated past it', async () => {
    const res = await jobs({ url: 'https://saputo.wd5.myworkdayjobs.com/en-US/Saputo_External_Careers', limit: 2, include_description: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.company).toMatchObject({ name: 'Bega Dairy and Drinks Services Pty Ltd', ats: 'workday', board: 'saputo/Saputo_External_Careers' });
    expect(body.total).toBe(274);
    expect(body.jobs.map((j: any) => [j.title, j.locations])).toEqual([
      ['Quality Lead', ['Troy, NC']],
      ['Quality Tech', ['Troy, NC']],
    ]);
    expect(body.jobs[0].description_text.split('\n')[1]).toBe('Permanent Full time role base in Lenah Valley');
    expect(body.truncated).toBe(true);
    expect(body.meta).toMatchObject({ scanned: 20, matched: 20, upstream_requests: 3 });
    const list = replay.requests.find((r) => r.path === `${WD_BASE}/jobs`)!;
    expect(JSON.parse(list.body)).toEqual({ appliedFacets: {}, limit: 20, offset: 0, searchText: '' });
  });

  it('an empty result after filters is free', async () => {
    const res = await jobs({ url: 'https://jobs.lever.co/idealistconsulting', q: 'astronaut' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).jobs).toEqual([]);
  });
});

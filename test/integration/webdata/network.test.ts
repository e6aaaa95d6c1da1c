import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNetworkJob, searchNetworkJobs } from '../../../tools/network.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

const JOB = 'linkedin/job-view-guest-page-4411867124.html';
const SEARCH = 'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html';
const SEARCH_PATH = '/jobs-guest/jobs/api/seeMoreJobPostings/search';

const suite = fixtureSuite('network job and search routes', JOB, SEARCH);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      { path: '/jobs/view/4411867124', fixture: JOB },
      { path: '/jobs/view/1234567', status: 404, body: '<html><title>Page not found</title></html>' },
      { path: '/jobs/view/7654321', status: 500, body: 'oops' },
      { path: SEARCH_PATH, query: { start: '990' }, body: '' },
      { path: SEARCH_PATH, fixture: SEARCH },
    ]);
    svc = await startTestService({ UPSTREAM_NETWORK_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('answers one posting by id, charged 2 credits', async () => {
    const res = await svc.call('/v1/network/job', { key, body: { job_id: '4411867124' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => getNetworkJob.output.parse(body)).not.toThrow();
    expect(body.search_parameters).toEqual({ engine: 'network_job', job_id: '4411867124' });
    expect(body.job).toMatchObject({
      job_id: '4411867124',
      title: 'Senior Software Engineer - Developer Experience',
      company: 'Heidi',
      company_id: '66706215',
      location: 'Melbourne, Victoria, Australia',
      applicants: '196 applicants',
      closed: false,
      easy_apply: false,
      seniority_level: 'Mid-Senior level',
      employment_type: 'Full-time',
      salary: null,
    });
    expect(body.job.description.split('\n')[0]).toBe('Who We Are');
    expect(body.meta.source).toBe('network');
    expect(body.meta.wire_bytes).toBeGreaterThan(10_000);
    expect(replay.requests.some((r) => r.path === '/jobs/view/4411867124')).toBe(true);
  });

  it('takes the id from a currentJobId link', async () => {
    const res = await svc.call('/v1/network/job', { key, body: { url: 'https://www.linkedin.com/jobs/search/?currentJobId=4411867124&keywords=x' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).job.title).toBe('Senior Software Engineer - Developer Experience');
  });

  it('404 for an unknown id and 502 for an upstream failure, both free', async () => {
    const missing = await svc.call('/v1/network/job', { key, body: { job_id: '1234567' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-credits-charged')).toBe('0');
    expect(((await missing.json()) as any).detail).toBe('job not found');
    const failed = await svc.call('/v1/network/job', { key, body: { job_id: '7654321' } });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-credits-charged')).toBe('0');
  });

  it('422 for a body without job_id or url, for a URL without id and for a malformed id', async () => {
    const none = await svc.call('/v1/network/job', { key, body: {} });
    expect(none.status).toBe(422);
    expect(((await none.json()) as any).detail).toBe('send job_id or url');
    const noId = await svc.call('/v1/network/job', { key, body: { url: 'https://www.linkedin.com/feed/' } });
    expect(noId.status).toBe(422);
    const bad = await svc.call('/v1/network/job', { key, body: { job_id: '12ab' } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).detail[0]).toMatchObject({ loc: ['body', 'job_id'] });
  });

  it('searches one page of ten cards and sends the filters upstream', async () => {
    const res = await svc.call('/v1/network/jobs', {
      key,
      body: { keywords: 'quality manager', location: 'Australia', company_ids: ['1035'], posted_within: 'past_week' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => searchNetworkJobs.output.parse(body)).not.toThrow();
    expect(body.jobs).toHaveLength(10);
    expect(body.jobs[0].position).toBe(1);
    expect(body.jobs[0].job_id).toMatch(/^\d+$/);
    expect(body.next_start).toBe(10);
    const sent = replay.requests.filter((r) => r.path === SEARCH_PATH).at(-1)!;
    expect(sent.query).toEqual({ keywords: 'quality manager', location: 'Australia', f_C: '1035', f_TPR: 'r604800', start: '0' });
  });

  it('an empty page past the end is free and has no next_start', async () => {
    const res = await svc.call('/v1/network/jobs', { key, body: { keywords: 'quality manager', start: 990 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('0');
    const body = (await res.json()) as any;
    expect(body.jobs).toEqual([]);
    expect(body).not.toHaveProperty('next_start');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../helpers/fixtures.js';
import { UpstreamContractChanged } from '../../../../src/domain/errors.js';
import { detectBoardFromUrl } from '../../../../src/sources/careers/detect.js';
import { matchesCareersFilters, type CareersFilters } from '../../../../src/sources/careers/filters.js';
import { parseAshbyBoard } from '../../../../src/sources/careers/parse-ashby.js';
import { parseGreenhouseBoard } from '../../../../src/sources/careers/parse-greenhouse.js';
import { parseLeverBoard } from '../../../../src/sources/careers/parse-lever.js';
import { parseRecruiteeBoard } from '../../../../src/sources/careers/parse-recruitee.js';
import { hasMoreSmartRecruiters, parseSmartRecruitersPage, parseSmartRecruitersPosting } from '../../../../src/sources/careers/parse-smartrecruiters.js';
import { parseTeamtailorBoard } from '../../../../src/sources/careers/parse-teamtailor.js';
import { parseWorkableBoard } from '../../../../src/sources/careers/parse-workable.js';
import { parseWorkdayJob, parseWorkdayPage } from '../../../../src/sources/careers/parse-workday.js';
import { toCareersJob } from '../../../../src/sources/careers/types.js';

const filterCareersJobs = <T extends Parameters<typeof matchesCareersFilters>[0]>(jobs: T[], f: CareersFilters) =>
  jobs.filter((j) => matchesCareersFilters(j, f));

const GH = 'ats/greenhouse-board-jobs-content-amplitude.json';
const gh = fixtureSuite('careers greenhouse parser', GH);
describe(gh.title, () => {
  it('maps the board', () => {
    const page = parseGreenhouseBoard(readFixtureJson(GH));
    expect(page.company_name).toBe('Amplitude');
    expect(page.total).toBe(37);
    expect(page.jobs).toHaveLength(2);
    const [a, b] = page.jobs;
    expect(a).toMatchObject({
      job_id: '8636903002',
      title: 'Customer Data Scientist - Experimentation',
      department: 'Solutions Consulting',
      locations: ['London, UK'],
      posted_at: '2026-07-16T15:55:32Z',
      updated_at: '2026-07-29T12:50:01Z',
      url: 'https://job-boards.greenhouse.io/amplitude/jobs/8636903002',
      employment_type: 'Regular',
      compensation: null,
      ats: 'greenhouse',
    });
    expect(a.description_text!.startsWith('Amplitude is the leading AI analytics platform, helping over 4,700 customers')).toBe(true);
    expect(a.description_text).not.toMatch(/&lt;|<div/);
    expect(b).toMatchObject({ job_id: '8651132002', title: 'Emerging Account Executive (India)', locations: ['Bangalore, India'], remote: true });
  });
});

const LEVER = 'ats/lever-v0-postings-idealistconsulting.json';
const lever = fixtureSuite('careers lever parser', LEVER);
describe(lever.title, () => {
  it('maps the postings', () => {
    const page = parseLeverBoard(readFixtureJson(LEVER));
    expect(page.total).toBe(2);
    expect(page.jobs[0]).toMatchObject({
      job_id: 'a24ec4e5-5caa-473d-abd4-b71f09a8167b',
      title: '(1099 Contract) Nonprofit Salesforce Consultant: Enterprise Project Manager',
      department: 'Services Team',
      locations: ['Chicago, IL'],
      posted_at: '2025-11-27T01:02:41.939Z',
      updated_at: null,
      url: 'https://jobs.lever.co/idealistconsulting/a24ec4e5-5caa-473d-abd4-b71f09a8167b',
      employment_type: 'Contract',
      compensation: null,
      remote: true,
    });
    expect(page.jobs[1]).toMatchObject({
      title: '(1099 Contract) Salesforce for Nonprofits: Solution Architect',
      locations: ['Washington, D.C.'],
      posted_at: '2023-01-29T02:28:23.769Z',
    });
    expect(page.jobs[0].description_text).toContain("How You'll Contribute\nGuide full project life cycle");
  });
});

const ASHBY = 'ats/ashby-posting-api-job-board-highlightta.json';
const ashby = fixtureSuite('careers ashby parser', ASHBY);
describe(ashby.title, () => {
  it('maps jobs, compensation only where a range is published, remote from workplaceType', () => {
    const page = parseAshbyBoard(readFixtureJson(ASHBY));
    expect(page.jobs.map((j) => j.title)).toEqual(['Senior Technical Recruiter', 'Senior Site Reliability Engineer']);
    expect(page.jobs[0]).toMatchObject({
      department: 'HighlightTA',
      locations: ['Canada'],
      employment_type: 'FullTime',
      posted_at: '2026-04-20T22:43:56.531Z',
      compensation: null,
      remote: true,
    });
    expect(page.jobs[1]).toMatchObject({
      job_id: 'fc2f1f85-46a0-4a31-b165-683e39c07c04',
      locations: ['Toronto, Ontario'],
      url: 'https://jobs.ashbyhq.com/HighlightTA/fc2f1f85-46a0-4a31-b165-683e39c07c04',
      compensation: { min: 102800, max: 137000, currency: 'CAD', text: 'CA$102.8K – CA$137K' },
      remote: false,
    });
    expect(page.jobs[1].description_text!.startsWith('COMPANY OVERVIEW')).toBe(true);
  });
});

const WORKABLE = 'ats/workable-widget-accounts-zaelab.json';
const workable = fixtureSuite('careers workable parser', WORKABLE);
describe(workable.title, () => {
  it('merges the per-location rows of one shortcode', () => {
    const page = parseWorkableBoard(readFixtureJson(WORKABLE));
    expect(page.company_name).toBe('Zaelab');
    expect(page.jobs).toHaveLength(1);
    expect(page.jobs[0]).toMatchObject({
      job_id: 'DD136DD7E7',
      title: 'Business Analyst - Spanish Speaking',
      department: 'Business Consulting',
      locations: ['Spain', 'Portugal'],
      posted_at: '2026-08-05',
      url: 'https://apply.workable.com/j/DD136DD7E7',
      remote: true,
    });
  });
});

const SR = 'ats/smartrecruiters-v1-companies-knight-postings.json';
const sr = fixtureSuite('careers smartrecruiters parser', SR);
describe(sr.title, () => {
  it('maps a list page', () => {
    const page = parseSmartRecruitersPage(readFixtureJson(SR), { company: 'knight' });
    expect(page).toMatchObject({ company_name: 'Knight Gayles', total: 1, offset: 0, limit: 100 });
    expect(page.jobs[0]).toMatchObject({
      job_id: '743999671674844',
      title: 'CNA  / LPN - Consistent Hours. Start Next Week.',
      department: null,
      locations: ['St. Louis, MO, United States'],
      posted_at: '2018-06-08T02:11:28Z',
      employment_type: 'Part-time',
      url: 'https://jobs.smartrecruiters.com/Knight/743999671674844',
      remote: false,
    });
    expect(hasMoreSmartRecruiters(page)).toBe(false);
  });

  it('reads the job ad of a posting detail (self-written payload)', () => {
    const detail = JSON.parse(readFileSync(new URL('../../../fixtures/webdata/smartrecruiters-posting.json', import.meta.url), 'utf8'));
    const d = parseSmartRecruitersPosting(detail);
    expect(d.job_id).toBe('743999671674844');
    expect(d.description_text).toBe(
      'Company Description\nWe staff care homes.\n\nJob Description\nConsistent hours\nStart next week\n\nQualifications\nActive CNA or LPN license.',
    );
  });
});

const WD_LIST = 'ats/workday-cxs-jobs-saputo-quality.json';
const WD_JOB = 'ats/workday-cxs-job-detail-bega.json';
const wd = fixtureSuite('careers workday parser', WD_LIST, WD_JOB);
describe(wd.title, () => {
  it('maps a list page with the board total', () => {
    const board = detectBoardFromUrl('https://saputo.wd5.myworkdayjobs.com/en-US/Saputo_External_Careers')!;
    const page = parseWorkdayPage(readFixtureJson(WD_LIST), { board });
    expect(page.total).toBe(274);
    expect(page.jobs).toHaveLength(20);
    expect(page.jobs[0]).toMatchObject({
      job_id: 'JR61760',
      title: 'Quality Lead',
      locations: ['Troy, NC'],
      posted_at: null,
      url: 'https://saputo.wd5.myworkdayjobs.com/Saputo_External_Careers/job/Troy-NC/Quality-Lead_JR61760',
    });
    expect(page.jobs[2]).toMatchObject({ job_id: 'JR63898', title: 'Regional Manager, Quality', locations: ['Franklin, WI'] });
  });

  it('maps a posting detail', () => {
    const j = parseWorkdayJob(readFixtureJson(WD_JOB));
    expect(j).toMatchObject({
      job_id: 'JR-7309',
      title: 'Quality Specialist - Environmental & Sanitation',
      locations: ['Hobart (TAS)'],
      posted_at: '2026-06-15',
      employment_type: 'Full time',
      url: 'https://begacheese.wd3.myworkdayjobs.com/Bega_Careers/job/Hobart-TAS/Quality-Specialist---Environmental---Sanitation_JR-7309',
      company_name: 'Bega Dairy and Drinks Services Pty Ltd',
    });
    expect(j.description_text!.split('\n')[1]).toBe('Permanent Full time role base in Lenah Valley');
  });
});

const RECRUITEE = 'ats/recruitee-api-offers.json';
const recruitee = fixtureSuite('careers recruitee parser', RECRUITEE);
describe(recruitee.title, () => {
  it('maps offers with their published salary range', () => {
    const page = parseRecruiteeBoard(readFixtureJson(RECRUITEE));
    expect(page.company_name).toBe('Acme');
    expect(page.jobs[0]).toMatchObject({
      job_id: '2700825',
      title: '(Senior) Financial Accountant (f/m/d) - Berlin/Brandenburg Region, Germany',
      department: 'Finance',
      locations: ['Berlin, Berlin, Germany'],
      posted_at: '2026-08-05T10:10:39Z',
      updated_at: '2026-08-05T11:45:30Z',
      url: 'https://jobs.acme.com/o/senior-financial-accountant-fmd-berlinbrandenburg-region-germany',
      employment_type: 'fulltime_permanent',
      compensation: { min: 60000, max: 75000, currency: 'EUR', text: null },
      remote: false,
    });
    expect(page.jobs[1]).toMatchObject({ job_id: '2697184', department: 'Sales', compensation: { min: 75000, max: 90000, currency: 'EUR', text: null } });
    expect(page.jobs[0].description_text!.startsWith('How you will make an impact\n')).toBe(true);
  });
});

const TT = 'ats/teamtailor-jobs-jsonfeed.json';
const tt = fixtureSuite('careers teamtailor parser', TT);
describe(tt.title, () => {
  it('maps the JSON feed items', () => {
    const page = parseTeamtailorBoard(readFixtureJson(TT));
    expect(page.company_name).toBe('Teamtailor');
    expect(page.jobs[0]).toMatchObject({
      job_id: '7167985',
      title: 'Account Executive - Italy (Madrid based)',
      locations: ['Madrid, ES'],
      posted_at: '2026-02-04T08:26:20Z',
      url: 'https://career.teamtailor.com/jobs/7167985-account-executive-italy-madrid-based',
      department: null,
      remote: null,
    });
    expect(page.jobs[1]).toMatchObject({ job_id: '7069633', locations: ['Stockholm, SE', 'København, DK'], posted_at: '2026-01-18T18:35:57Z' });
  });
});

describe('careers filters and the contract job', () => {
  it('filters on title, location, department and remote', () => {
    const ashbyJobs = parseAshbyBoard(readFixtureJson(ASHBY)).jobs;
    const recruiteeJobs = parseRecruiteeBoard(readFixtureJson(RECRUITEE)).jobs;
    const all = [...ashbyJobs, ...recruiteeJobs];
    expect(filterCareersJobs(all, { q: 'RELIABILITY' }).map((j) => j.job_id)).toEqual(['fc2f1f85-46a0-4a31-b165-683e39c07c04']);
    expect(filterCareersJobs(all, { location: 'germany' })).toHaveLength(2);
    expect(filterCareersJobs(all, { department: 'sales' }).map((j) => j.job_id)).toEqual(['2697184']);
    expect(filterCareersJobs(all, { remote_only: true }).map((j) => j.title)).toEqual(['Senior Technical Recruiter']);
  });

  it('drops filter-only fields and adds description_text only when asked', () => {
    const rec = {
      job_id: '1',
      title: 'T',
      department: null,
      locations: [],
      posted_at: null,
      updated_at: null,
      url: null,
      employment_type: null,
      compensation: null,
      ats: 'lever' as const,
      description_text: 'D',
      remote: true,
    };
    expect(toCareersJob(rec, false)).not.toHaveProperty('remote');
    expect(toCareersJob(rec, false)).not.toHaveProperty('description_text');
    expect(toCareersJob(rec, true).description_text).toBe('D');
  });

  it('reports a payload without the expected array as a contract change', () => {
    expect(() => parseGreenhouseBoard({ error: 'x' })).toThrow(UpstreamContractChanged);
    expect(() => parseLeverBoard({ ok: false })).toThrow(UpstreamContractChanged);
  });
});

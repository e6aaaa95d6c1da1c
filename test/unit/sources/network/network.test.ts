import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture } from '../../../helpers/fixtures.js';
import { UpstreamContractChanged, UpstreamFailed } from '../../../../src/domain/errors.js';
import { htmlToText, reduceHtml } from '../../../../src/sources/network/html-reduce.js';
import { networkJobIdFromUrl, resolveNetworkJobId } from '../../../../src/sources/network/job-id.js';
import { parseNetworkJob } from '../../../../src/sources/network/parse-job.js';
import { parseNetworkSearch } from '../../../../src/sources/network/parse-search.js';
import { networkJobPageRequest, networkSearchRequest } from '../../../../src/sources/network/requests.js';

const JOB = 'linkedin/job-view-guest-page-4411867124.html';
const SEARCH = 'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html';

const job = fixtureSuite('network job page parser', JOB);
describe(job.title, () => {
  const html = readFixture(JOB);

  it('reads the top card', () => {
    const j = parseNetworkJob(html);
    expect(j.job_id).toBe('4411867124');
    expect(j.title).toBe('Senior Software Engineer - Developer Experience');
    expect(j.company).toBe('Heidi');
    expect(j.company_id).toBe('66706215');
    expect(j.company_url).toBe('https://au.linkedin.com/company/heidi');
    expect(j.company_logo).toContain('https://media.licdn.com/dms/image/v2/D560BAQENvIEKLN6qSg/company-logo_100_100/');
    expect(j.location).toBe('Melbourne, Victoria, Australia');
    expect(j.posted).toBe('1 week ago');
    expect(j.applicants).toBe('196 applicants');
    expect(j.closed).toBe(false);
    expect(j.link).toBe('https://au.linkedin.com/jobs/view/senior-software-engineer-developer-experience-at-heidi-4411867124');
  });

  it('reads the apply control as apply-on-company-site and never returns the off-site URL', () => {
    const j = parseNetworkJob(html);
    expect(j.easy_apply).toBe(false);
    expect(JSON.stringify(j)).not.toMatch(/applyUrl|externalApply/);
  });

  it('reads the criteria; no pay range is published on this posting', () => {
    const j = parseNetworkJob(html);
    expect(j.criteria).toEqual([
      { name: 'Seniority level', value: 'Mid-Senior level' },
      { name: 'Employment type', value: 'Full-time' },
      { name: 'Job function', value: 'Engineering and Information Technology' },
      { name: 'Industries', value: 'Software Development' },
    ]);
    expect(j.seniority_level).toBe('Mid-Senior level');
    expect(j.employment_type).toBe('Full-time');
    expect(j.industries).toBe('Software Development');
    expect(j.salary).toBeNull();
    expect(j.salary_label).toBeNull();
  });

  it('keeps the description line breaks and reduces its markup', () => {
    const j = parseNetworkJob(html);
    const lines = j.description!.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Who We Are',
      '',
      'Healthcare needs a better rhythm: one that keeps care continuous and deeply human. Heidi is building an AI Care Partner that works alongside clinicians to make that possible.',
    ]);
    expect(lines).toContain('3–10+ years experience in developer tooling developer, developer experience');
    expect(j.description).not.toContain('Show more');
    expect(j.description_html!.startsWith('<strong>Who We Are<br><br></strong>Healthcare needs')).toBe(true);
    expect(j.description_html).toContain('<ul><li>Designing and maintaining build systems:');
    expect(j.description_html).not.toMatch(/<(?!\/?(p|br|strong|em|u|ul|ol|li|h[1-6])>)[a-z]/);
    expect(j.description_html).not.toMatch(/class=|style=/);
  });
});

describe('network job page edge cases', () => {
  it('reads a published pay range and a closed posting', () => {
    const html = `<section class="top-card-layout"><h2 class="top-card-layout__title">Analyst</h2>
      <div class="topcard__flavor-row"><span class="topcard__flavor"><a class="topcard__org-name-link" href="https://www.linkedin.com/company/acme?trk=x">Acme</a></span></div>
      <figure class="closed-job"><figcaption class="closed-job__flavor--closed">No longer accepting applications</figcaption></figure></section>
      <section class="compensation"><h3 class="compensation__heading">Base pay range</h3><div class="salary compensation__salary">$90,000.00/yr - $120,000.00/yr</div></section>
      <code id="decoratedJobPostingId" style="display: none"><!--"1234567890"--></code>`;
    const j = parseNetworkJob(html);
    expect(j.job_id).toBe('1234567890');
    expect(j.closed).toBe(true);
    expect(j.salary).toBe('$90,000.00/yr - $120,000.00/yr');
    expect(j.salary_label).toBe('Base pay range');
    expect(j.easy_apply).toBeUndefined();
  });

  it('tells an auth wall from a changed page', () => {
    expect(() => parseNetworkJob('<html><head><title>Sign Up | LinkedIn</title></head><body>authwall</body></html>')).toThrow(UpstreamFailed);
    expect(() => parseNetworkJob('<html><body><p>nothing here</p></body></html>')).toThrow(UpstreamContractChanged);
  });
});

const search = fixtureSuite('network search fragment parser', SEARCH);
describe(search.title, () => {
  it('reads the ten cards in order', () => {
    const cards = parseNetworkSearch(readFixture(SEARCH));
    expect(cards).toHaveLength(10);
    expect(cards.map((c) => c.job_id)).toEqual([
      '4426694701',
      '4428774076',
      '4422537148',
      '4419131880',
      '4427681673',
      '4413523234',
      '4430438347',
      '4426862870',
      '4426494176',
      '4428225208',
    ]);
    expect(cards[0]).toMatchObject({
      position: 1,
      title: 'Quality Assurance Manager',
      company: 'EQ Food',
      company_url: 'https://au.linkedin.com/company/eq-food',
      location: 'Minto, New South Wales, Australia',
      posted_date: '2026-06-12',
      posted: '1 week ago',
      salary: null,
      benefits: null,
      link: 'https://au.linkedin.com/jobs/view/quality-assurance-manager-at-eq-food-4426694701',
    });
    expect(cards[6]).toMatchObject({
      title: 'Food Manufacturing Operations Manager',
      company: 'One Harvest',
      posted_date: '2026-06-18',
      posted: '2 days ago',
      benefits: 'Be an early applicant',
    });
    expect(cards[9]).toMatchObject({
      title: 'National Operations Manager (Audit & Certifications)',
      company: 'SGS',
      location: 'Alexandria, New South Wales, Australia',
    });
  });

  it('continues positions from the start offset; an empty fragment is an empty page', () => {
    expect(parseNetworkSearch(readFixture(SEARCH), { start: 10 })[0].position).toBe(11);
    expect(parseNetworkSearch('')).toEqual([]);
  });
});

describe('network job ids and requests', () => {
  it('takes the id from posting links and currentJobId', () => {
    expect(networkJobIdFromUrl('https://au.linkedin.com/jobs/view/senior-software-engineer-developer-experience-at-heidi-4411867124')).toBe('4411867124');
    expect(networkJobIdFromUrl('https://www.linkedin.com/jobs/view/4411867124/?trk=x')).toBe('4411867124');
    expect(networkJobIdFromUrl('https://www.linkedin.com/jobs/search/?currentJobId=4426694701&keywords=quality')).toBe('4426694701');
    expect(networkJobIdFromUrl('https://www.linkedin.com/jobs/search/?keywords=quality')).toBeNull();
    expect(resolveNetworkJobId({ job_id: '4411867124', url: 'https://www.linkedin.com/jobs/view/4426694701' })).toBe('4411867124');
  });

  it('builds the page and search requests', () => {
    expect(networkJobPageRequest('4411867124').path).toBe('/jobs/view/4411867124');
    expect(networkSearchRequest({ keywords: 'quality manager', location: 'Sydney', company_ids: ['66706215'], start: 10 }).path).toBe(
      '/jobs-guest/jobs/api/seeMoreJobPostings/search?keywords=quality+manager&location=Sydney&f_C=66706215&start=10',
    );
  });
});

describe('html reduction', () => {
  it('keeps the allowed tags without attributes and turns b/i into strong/em', () => {
    expect(reduceHtml('<div class="x"><b style="y">Bold</b> <i>it</i><script>x()</script><a href="/z">link</a></div>')).toBe(
      '<strong>Bold</strong> <em>it</em>link',
    );
    expect(htmlToText('<p>One</p><p>Two<br>Three</p><ul><li>A</li><li>B</li></ul>')).toBe('One\nTwo\nThree\nA\nB');
  });
});

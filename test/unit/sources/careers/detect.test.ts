import { describe, expect, it } from 'vitest';
import { detectBoardFromUrl, domainFallbackBoards, scanCareersPage } from '../../../../src/sources/careers/detect.js';
import { boardRequest, smartRecruitersPageRequest, workdayJobRequest, workdayPageRequest } from '../../../../src/sources/careers/requests.js';
import { supportedSystemsText } from '../../../../src/sources/careers/types.js';

describe('careers board URLs (no request)', () => {
  const cases: [string, string | null, string | null][] = [
    ['https://boards.greenhouse.io/amplitude', 'greenhouse', 'amplitude'],
    ['https://job-boards.greenhouse.io/amplitude/jobs/8636903002', 'greenhouse', 'amplitude'],
    ['https://boards.greenhouse.io/embed/job_board?for=acme', 'greenhouse', 'acme'],
    ['https://boards-api.greenhouse.io/v1/boards/amplitude/jobs?content=true', 'greenhouse', 'amplitude'],
    ['https://jobs.lever.co/idealistconsulting/a24ec4e5-5caa-473d-abd4-b71f09a8167b', 'lever', 'idealistconsulting'],
    ['https://api.lever.co/v0/postings/idealistconsulting?mode=json', 'lever', 'idealistconsulting'],
    ['https://jobs.ashbyhq.com/HighlightTA/90fb3621-899e-4b59-925d-25080ec91e18', 'ashby', 'HighlightTA'],
    ['https://apply.workable.com/zaelab/', 'workable', 'zaelab'],
    ['https://apply.workable.com/api/v1/widget/accounts/zaelab?details=true', 'workable', 'zaelab'],
    ['https://jobs.smartrecruiters.com/knight/743999671674844', 'smartrecruiters', 'knight'],
    [
      'https://begacheese.wd3.myworkdayjobs.com/Bega_Careers/job/Hobart-TAS/Quality-Specialist---Environmental---Sanitation_JR-7309',
      'workday',
      'begacheese/Bega_Careers',
    ],
    ['https://saputo.wd5.myworkdayjobs.com/en-US/Saputo_External_Careers', 'workday', 'saputo/Saputo_External_Careers'],
    ['https://acme.recruitee.com/o/senior-financial-accountant', 'recruitee', 'acme'],
    ['https://career.teamtailor.com/jobs/7167985-account-executive-italy-madrid-based', 'teamtailor', 'career.teamtailor.com'],
    ['https://apply.workable.com/j/DD136DD7E7', null, null],
    ['https://www.teamtailor.com/en', null, null],
    ['https://example.com/careers', null, null],
    ['not a url', null, null],
  ];
  it.each(cases)('%s', (url, ats, boardId) => {
    const b = detectBoardFromUrl(url);
    expect(b?.ats ?? null).toBe(ats);
    expect(b?.board ?? null).toBe(boardId);
  });

  it('a path that is not valid percent-encoding names no board (and never throws)', () => {
    expect(detectBoardFromUrl('https://boards.greenhouse.io/%E0%A4%A')).toBeNull();
  });

  it('keeps what the API needs', () => {
    expect(detectBoardFromUrl('https://saputo.wd5.myworkdayjobs.com/en-US/Saputo_External_Careers')).toEqual({
      ats: 'workday',
      board: 'saputo/Saputo_External_Careers',
      board_url: 'https://saputo.wd5.myworkdayjobs.com/Saputo_External_Careers',
      host: 'saputo.wd5.myworkdayjobs.com',
      tenant: 'saputo',
      site: 'Saputo_External_Careers',
    });
    expect(detectBoardFromUrl('https://jobs.eu.lever.co/acme')).toMatchObject({
      ats: 'lever',
      board: 'acme',
      region: 'eu',
      board_url: 'https://jobs.eu.lever.co/acme',
    });
  });
});

describe('careers page scan', () => {
  const page = `<html><head>
    <script src="https://boards.greenhouse.io/embed/job_board/js?for=acme"></script>
    <script id="__NEXT_DATA__" type="application/json">{"props":{"jobsUrl":"https:\\/\\/jobs.lever.co\\/acme-labs","email":"jobs@acme.example"}}</script>
  </head><body>
    <a href="https://boards.greenhouse.io/acme/jobs/123">Engineer</a>
    <a href="https://boards.greenhouse.io/acme/jobs/456">Designer</a>
    <iframe src="https://jobs.ashbyhq.com/acme/embed"></iframe>
    <a href="/about">About</a><a href="/careers/life">Life at Acme</a><a href="https://jobs.acme.example/">Open roles</a>
    <a href="https://other.example/careers">Partner careers</a><a href="/careers#top">Careers</a>
  </body></html>`;

  it('ranks boards by how often the page names them and says where they were seen', () => {
    const scan = scanCareersPage(page, 'https://www.acme.example/careers');
    expect(scan.boards.map((b) => [b.ats, b.board, b.count])).toEqual([
      ['greenhouse', 'acme', 3],
      ['ashby', 'acme', 1],
      ['lever', 'acme-labs', 1],
    ]);
    expect(scan.boards[0].evidence).toEqual(['link', 'script']);
    expect(scan.boards[1].evidence).toEqual(['iframe']);
    expect(scan.boards[2].evidence).toEqual(['state']);
  });

  it('lists same-site careers links to follow, not the page itself or other sites', () => {
    const scan = scanCareersPage(page, 'https://www.acme.example/careers');
    expect(scan.careers_links).toEqual(['https://www.acme.example/careers/life', 'https://jobs.acme.example/']);
  });

  it('recognises a Teamtailor site on the company domain', () => {
    const html =
      '<html><head><link rel="stylesheet" href="https://assets-aws.teamtailor-cdn.com/assets/packs/css/careersite.css"></head><body><h1>Jobs</h1></body></html>';
    const scan = scanCareersPage(html, 'https://careers.acme.example/jobs');
    expect(scan.boards).toEqual([
      {
        ats: 'teamtailor',
        board: 'careers.acme.example',
        board_url: 'https://careers.acme.example/jobs',
        host: 'careers.acme.example',
        count: 1,
        evidence: ['custom_domain'],
      },
    ]);
  });

  it('finds nothing on a page without boards', () => {
    expect(scanCareersPage('<html><body><a href="/team">Team</a></body></html>', 'https://acme.example/').boards).toEqual([]);
  });

  it('offers the two domain-named candidates', () => {
    expect(domainFallbackBoards('https://www.acme.co.uk/about').map((b) => [b.ats, b.board])).toEqual([
      ['greenhouse', 'acme'],
      ['lever', 'acme'],
    ]);
    expect(supportedSystemsText()).toBe('Greenhouse, Lever, Ashby, Workable, SmartRecruiters, Workday, Recruitee, Teamtailor');
  });
});

describe('careers board requests', () => {
  it('builds the one-request boards', () => {
    expect(boardRequest(detectBoardFromUrl('https://boards.greenhouse.io/amplitude')!, { include_description: true })?.url).toBe(
      'https://boards-api.greenhouse.io/v1/boards/amplitude/jobs?content=true',
    );
    expect(boardRequest(detectBoardFromUrl('https://jobs.eu.lever.co/acme')!)?.url).toBe('https://api.eu.lever.co/v0/postings/acme?mode=json');
    expect(boardRequest(detectBoardFromUrl('https://jobs.ashbyhq.com/HighlightTA')!)?.url).toBe(
      'https://api.ashbyhq.com/posting-api/job-board/HighlightTA?includeCompensation=true',
    );
    expect(boardRequest(detectBoardFromUrl('https://apply.workable.com/zaelab/')!)?.url).toBe(
      'https://apply.workable.com/api/v1/widget/accounts/zaelab?details=false',
    );
    expect(boardRequest(detectBoardFromUrl('https://acme.recruitee.com/')!)?.url).toBe('https://acme.recruitee.com/api/offers/');
    expect(boardRequest(detectBoardFromUrl('https://career.teamtailor.com/jobs')!)?.url).toBe('https://career.teamtailor.com/jobs.json');
    expect(boardRequest(detectBoardFromUrl('https://jobs.smartrecruiters.com/knight')!)).toBeNull();
  });

  it('pages SmartRecruiters by 100 and Workday by 20 (POST body)', () => {
    expect(smartRecruitersPageRequest(detectBoardFromUrl('https://jobs.smartrecruiters.com/knight')!, 2).url).toBe(
      'https://api.smartrecruiters.com/v1/companies/knight/postings?limit=100&offset=200',
    );
    const wd = detectBoardFromUrl('https://saputo.wd5.myworkdayjobs.com/Saputo_External_Careers')!;
    const req = workdayPageRequest(wd, 3);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('https://saputo.wd5.myworkdayjobs.com/wday/cxs/saputo/Saputo_External_Careers/jobs');
    expect(JSON.parse(req.body!)).toEqual({ appliedFacets: {}, limit: 20, offset: 60, searchText: '' });
    expect(workdayJobRequest(wd, '/job/Troy-NC/Quality-Lead_JR61760').url).toBe(
      'https://saputo.wd5.myworkdayjobs.com/wday/cxs/saputo/Saputo_External_Careers/job/Troy-NC/Quality-Lead_JR61760',
    );
  });
});

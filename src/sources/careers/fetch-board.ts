import { NotFound } from '../../domain/errors.js';
import type { SafeFetchResponse } from '../../upstream/safe-fetch.js';
import { matchesCareersFilters, type CareersFilters } from './filters.js';
import { assertOk, atsJson, fetchAts, type CareersIo } from './io.js';
import { parseAshbyBoard } from './parse-ashby.js';
import { parseGreenhouseBoard } from './parse-greenhouse.js';
import { parseLeverBoard } from './parse-lever.js';
import { parseRecruiteeBoard } from './parse-recruitee.js';
import { hasMoreSmartRecruiters, parseSmartRecruitersPage, parseSmartRecruitersPosting } from './parse-smartrecruiters.js';
import { parseTeamtailorBoard } from './parse-teamtailor.js';
import { parseWorkableBoard } from './parse-workable.js';
import { parseWorkdayJob, parseWorkdayPage } from './parse-workday.js';
import {
  boardRequest,
  DETAIL_REQUESTS_MAX,
  SMARTRECRUITERS_MAX_PAGES,
  smartRecruitersPageRequest,
  smartRecruitersPostingRequest,
  WORKDAY_MAX_PAGES,
  WORKDAY_PAGE_SIZE,
  workdayExternalPath,
  workdayJobRequest,
  workdayPageRequest,
} from './requests.js';
import { CAREERS_ATS_NAMES, type CareersBoard, type CareersBoardPage, type CareersJobRecord } from './types.js';
import { mapLimit } from '../../domain/map-limit.js';

/** Detail requests in flight at once for descriptions. */
const DETAIL_CONCURRENCY = 6;

export interface BoardJobsOptions {
  filters: CareersFilters;
  limit: number;
  include_description: boolean;
}

export interface BoardJobs {
  company_name: string | null;
  /** The system's own count before filters; null when it states none. */
  total: number | null;
  /** Matching jobs, at most `limit`. */
  jobs: CareersJobRecord[];
  scanned: number;
  matched: number;
  truncated: boolean;
}

type WholeBoardParser = (payload: unknown) => CareersBoardPage;
const WHOLE_BOARD: Partial<Record<CareersBoard['ats'], WholeBoardParser>> = {
  greenhouse: parseGreenhouseBoard,
  lever: parseLeverBoard,
  ashby: parseAshbyBoard,
  workable: parseWorkableBoard,
  recruitee: parseRecruiteeBoard,
  teamtailor: parseTeamtailorBoard,
};

function boardMissing(b: CareersBoard): NotFound {
  return new NotFound(`${CAREERS_ATS_NAMES[b.ats]} says the board ${b.board} does not exist`);
}

/** A board answer: 404 or 410 means the system has no such board. */
function checkBoardReply(res: SafeFetchResponse, b: CareersBoard): void {
  if (res.status === 404 || res.status === 410) throw boardMissing(b);
  assertOk(res);
}

/** Open jobs of one board, filtered, up to `limit`, with descriptions when asked. */
export async function fetchBoardJobs(io: CareersIo, b: CareersBoard, opts: BoardJobsOptions): Promise<BoardJobs> {
  if (b.ats === 'smartrecruiters') return pagedSmartRecruiters(io, b, opts);
  if (b.ats === 'workday') return pagedWorkday(io, b, opts);
  const req = boardRequest(b, { include_description: opts.include_description })!;
  const res = await fetchAts(io, req);
  checkBoardReply(res, b);
  const page = WHOLE_BOARD[b.ats]!(atsJson(res, b.ats));
  const matched = page.jobs.filter((j) => matchesCareersFilters(j, opts.filters));
  return {
    company_name: page.company_name,
    total: page.total,
    jobs: matched.slice(0, opts.limit),
    scanned: page.jobs.length,
    matched: matched.length,
    truncated: matched.length > opts.limit,
  };
}

/** Pages of 100 until `limit` jobs match, at most 20 pages; descriptions from one detail request per returned job. */
async function pagedSmartRecruiters(io: CareersIo, b: CareersBoard, opts: BoardJobsOptions): Promise<BoardJobs> {
  const matched: CareersJobRecord[] = [];
  let scanned = 0;
  let total: number | null = null;
  let companyName: string | null = null;
  let more = true;
  for (let page = 0; page < SMARTRECRUITERS_MAX_PAGES && more && matched.length < opts.limit; page++) {
    const res = await fetchAts(io, smartRecruitersPageRequest(b, page));
    if (page === 0) checkBoardReply(res, b);
    else assertOk(res);
    const p = parseSmartRecruitersPage(atsJson(res, 'smartrecruiters'), { company: b.board });
    if (page === 0) total = p.total;
    companyName ??= p.company_name;
    scanned += p.jobs.length;
    matched.push(...p.jobs.filter((j) => matchesCareersFilters(j, opts.filters)));
    more = hasMoreSmartRecruiters(p);
  }
  const jobs = matched.slice(0, opts.limit);
  if (opts.include_description) {
    await mapLimit(jobs.slice(0, DETAIL_REQUESTS_MAX), DETAIL_CONCURRENCY, async (job) => {
      job.description_text = await detailText(async () => {
        const res = await fetchAts(io, smartRecruitersPostingRequest(b, job.job_id));
        assertOk(res);
        return parseSmartRecruitersPosting(atsJson(res, 'smartrecruiters posting')).description_text;
      });
    });
  }
  return { company_name: companyName, total, jobs, scanned, matched: matched.length, truncated: matched.length > opts.limit || more };
}

/** Pages of 20 until `limit` jobs match, at most 50 pages; descriptions from one detail request per returned job. */
async function pagedWorkday(io: CareersIo, b: CareersBoard, opts: BoardJobsOptions): Promise<BoardJobs> {
  const matched: CareersJobRecord[] = [];
  let scanned = 0;
  let total: number | null = null;
  let more = true;
  for (let page = 0; page < WORKDAY_MAX_PAGES && more && matched.length < opts.limit; page++) {
    const res = await fetchAts(io, workdayPageRequest(b, page));
    if (page === 0) checkBoardReply(res, b);
    else assertOk(res);
    const p = parseWorkdayPage(atsJson(res, 'workday'), { board: b });
    if (page === 0) total = p.total;
    scanned += p.jobs.length;
    matched.push(...p.jobs.filter((j) => matchesCareersFilters(j, opts.filters)));
    more = p.jobs.length > 0 && (total !== null ? scanned < total : p.jobs.length >= WORKDAY_PAGE_SIZE);
  }
  const jobs = matched.slice(0, opts.limit);
  let companyName: string | null = null;
  if (opts.include_description) {
    await mapLimit(jobs.slice(0, DETAIL_REQUESTS_MAX), DETAIL_CONCURRENCY, async (job) => {
      const path = job.url ? workdayExternalPath(b, job.url) : null;
      if (!path) {
        job.description_text = null;
        return;
      }
      job.description_text = await detailText(async () => {
        const res = await fetchAts(io, workdayJobRequest(b, path));
        assertOk(res);
        const detail = parseWorkdayJob(atsJson(res, 'workday job'));
        companyName ??= detail.company_name;
        return detail.description_text ?? null;
      });
    });
  }
  return { company_name: companyName, total, jobs, scanned, matched: matched.length, truncated: matched.length > opts.limit || more };
}

/** A failed detail request leaves that one description unknown (null) instead of failing the board. */
async function detailText(fn: () => Promise<string | null>): Promise<string | null> {
  try {
    return await fn();
  } catch {
    return null;
  }
}

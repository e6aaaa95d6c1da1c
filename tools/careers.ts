import { z } from 'zod';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchBoardJobs } from '../src/sources/careers/fetch-board.js';
import { findCareersBoard } from '../src/sources/careers/find-board.js';
import { careersIo } from '../src/sources/careers/io.js';
import { CAREERS_ATS, PAY_PERIODS, supportedSystemsText, toCareersJob } from '../src/sources/careers/types.js';
import { elapsedSince } from './webdata-schemas.js';

const ats = z.enum(CAREERS_ATS);
const BoardRef = z.object({ ats, board: z.string(), board_url: z.string() });
const detectedBy = z.enum(['page', 'domain']);

const CareersJob = z.object({
  job_id: z.string(),
  title: z.string(),
  department: z.string().nullable(),
  locations: z.array(z.string()),
  posted_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  url: z.string().nullable(),
  employment_type: z.string().nullable(),
  compensation: z
    .object({
      min: z.number(),
      max: z.number(),
      currency: z.string().nullable(),
      period: z
        .enum(PAY_PERIODS)
        .nullable()
        .describe('what min and max are paid per (hour, day, week, month, year), as the board states it; null when it states none'),
      text: z.string().nullable(),
    })
    .nullable(),
  ats,
  description_text: z.string().nullable().optional(),
});

/** A URL typed without a scheme (`acme.com/careers`) is read as https. */
function withScheme(url: string): string {
  const t = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `https://${t}`;
}

const SYSTEMS = supportedSystemsText();

export const getCareersJobs = defineTool({
  name: 'get_careers_jobs',
  title: 'Open jobs of one company careers board',
  description: `Open jobs of one company from its applicant-tracking board (${SYSTEMS}), from a careers page URL or a board URL, with title/location/department/remote filters. A careers page is read (plus at most two linked careers pages) to find the board; a page naming none falls back to the board named after the company's domain on Greenhouse or Lever, kept only when the system confirms the same company. Costs 2 credits; an empty result and failures are free; 422 when no supported board is found, 404 when the system says the board does not exist. detect_careers_board tells which board a page leads to without listing jobs. meta.pages_fetched counts careers pages read; meta.upstream_requests every request (pages, board API pages, detail requests).`,
  method: 'POST',
  path: '/v1/careers/jobs',
  tags: ['careers'],
  input: z.strictObject({
    url: z.string().min(4).max(2048).describe('Careers page of the company, or the board URL on its applicant-tracking system.'),
    q: z.string().max(200).optional().describe('Only jobs whose title contains these words (case-insensitive).'),
    location: z.string().max(200).optional().describe('Only jobs whose location contains this text.'),
    department: z.string().max(200).optional().describe('Only jobs whose department or team contains this text.'),
    remote_only: z.boolean().default(false).describe('Only jobs the board marks as remote.'),
    include_description: z.boolean().default(false).describe('Add each job’s full description (one more request per job on some systems).'),
    limit: z.int().min(1).max(1000).default(100).describe('Most jobs returned.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({
      engine: z.literal('careers_jobs'),
      url: z.string(),
      q: z.string().nullable(),
      remote_only: z.boolean(),
      include_description: z.boolean(),
      limit: z.int(),
    }),
    company: z.object({ name: z.string().nullable(), ats, board: z.string(), board_url: z.string() }),
    jobs: z.array(CareersJob),
    total: z.int().nullable(),
    returned: z.int(),
    truncated: z.boolean(),
    meta: z.object({
      source: z.string(),
      upstream_requests: z.int(),
      wire_bytes: z.int(),
      elapsed_s: z.number(),
      scanned: z.int(),
      matched: z.int(),
      detected_by: detectedBy,
      pages_fetched: z.int(),
    }),
  }),
  credits: 2,
  cache: 'jobs',
  isEmpty: (o) => o.jobs.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const io = careersIo(deps);
    const found = await findCareersBoard(io, withScheme(input.url));
    const board = await fetchBoardJobs(io, found.board, {
      filters: { q: input.q, location: input.location, department: input.department, remote_only: input.remote_only },
      limit: input.limit,
      include_description: input.include_description,
    });
    const jobs = board.jobs.map((j) => toCareersJob(j, input.include_description));
    return {
      search_parameters: {
        engine: 'careers_jobs' as const,
        url: input.url,
        q: input.q ?? null,
        remote_only: input.remote_only,
        include_description: input.include_description,
        limit: input.limit,
      },
      company: { name: board.company_name ?? found.company_name, ats: found.board.ats, board: found.board.board, board_url: found.board.board_url },
      jobs,
      total: board.total,
      returned: jobs.length,
      truncated: board.truncated,
      meta: {
        source: 'careers',
        upstream_requests: io.requests,
        wire_bytes: io.wire_bytes,
        elapsed_s: elapsedSince(started),
        scanned: board.scanned,
        matched: board.matched,
        detected_by: found.detected_by,
        pages_fetched: found.pages_fetched,
      },
    };
  },
});

export const detectCareersBoard = defineTool({
  name: 'detect_careers_board',
  title: 'Which careers board a page leads to',
  description: `The applicant-tracking board (${SYSTEMS}) a careers page or board URL leads to, without listing jobs: a board URL is parsed with no request; a page is fetched (every redirect DNS-validated) and scanned for links, iframes, the embed script, URLs in its JSON state and a custom-domain career site, following at most two same-site careers links; with none, the domain-named boards of Greenhouse and Lever are probed (meta.board_probes) and kept only when the system confirms the same company. Costs 1 credit (our choice: the spec shows none); 422 when nothing is found, and failures, are free. Feed the board_url to get_careers_jobs.`,
  method: 'POST',
  path: '/v1/careers/detect',
  tags: ['careers'],
  input: z.strictObject({
    url: z.string().min(4).max(2048).describe('Careers page of the company (or any page of its site that links to the board).'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('careers_detect'), url: z.string() }),
    company: BoardRef,
    detected_by: detectedBy,
    candidates: z.array(BoardRef),
    meta: z.object({
      pages_fetched: z.int(),
      elapsed_s: z.number(),
      board_probes: z
        .array(z.object({ ats: z.string(), board: z.string(), outcome: z.enum(['confirmed', 'absent', 'different_company', 'failed']) }))
        .optional(),
    }),
  }),
  credits: 1,
  cache: 'jobs',
  async handler(input, { deps }) {
    const started = performance.now();
    const found = await findCareersBoard(careersIo(deps), withScheme(input.url));
    const ref = (b: { ats: (typeof CAREERS_ATS)[number]; board: string; board_url: string }) => ({ ats: b.ats, board: b.board, board_url: b.board_url });
    return {
      search_parameters: { engine: 'careers_detect' as const, url: input.url },
      company: ref(found.board),
      detected_by: found.detected_by,
      candidates: found.candidates.map(ref),
      meta: {
        pages_fetched: found.pages_fetched,
        elapsed_s: elapsedSince(started),
        ...(found.board_probes ? { board_probes: found.board_probes } : {}),
      },
    };
  },
});

export const CAREERS_TOOLS = [getCareersJobs, detectCareersBoard];

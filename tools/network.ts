import { z } from 'zod';
import { InvalidInput } from '../src/domain/errors.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchNetworkJob, fetchNetworkSearch, NETWORK_SEARCH_PAGE_SIZE } from '../src/sources/network/fetch.js';
import { resolveNetworkJobId } from '../src/sources/network/job-id.js';
import { elapsedSince, WebMeta } from './webdata-schemas.js';

const NetworkJob = z.object({
  job_id: z.string(),
  title: z.string(),
  company: z.string().nullable(),
  company_id: z.string().nullable(),
  company_url: z.string().nullable(),
  company_logo: z.string().nullable(),
  location: z.string().nullable(),
  posted: z.string().nullable(),
  applicants: z.string().nullable(),
  closed: z.boolean(),
  easy_apply: z.boolean().optional(),
  salary: z.string().nullable(),
  salary_label: z.string().nullable(),
  seniority_level: z.string().nullable(),
  employment_type: z.string().nullable(),
  industries: z.string().nullable(),
  criteria: z.array(z.object({ name: z.string(), value: z.string() })),
  description: z.string().nullable(),
  description_html: z.string().nullable(),
  link: z.string(),
});

export const getNetworkJob = defineTool({
  name: 'get_network_job',
  title: 'One job posting of the professional network',
  description:
    'Full public record of one job posting on the professional network: title, company (with company_id for search_network_jobs), location, posted age, applicants, closed, easy_apply, salary, criteria and the description as text and reduced HTML. Send job_id (6-12 digits) or url (a /jobs/view/<id> link or any jobs page with currentJobId). Costs 2 credits; an unknown or deleted id (404) and failures are free. Ids come from search_network_jobs.',
  method: 'POST',
  path: '/v1/network/job',
  tags: ['network'],
  input: z.strictObject({
    job_id: z
      .string()
      .regex(/^\d{6,12}$/, 'Input should be 6-12 digits')
      .optional()
      .describe('Numeric id of the posting (6-12 digits), as in the posting URL /jobs/view/<id>. Give job_id or url.'),
    url: z.string().min(12).max(2000).optional().describe('Public URL of the posting; its numeric id is used. Give job_id or url.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('network_job'), job_id: z.string() }),
    job: NetworkJob,
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'jobs',
  async handler(input, { deps }) {
    const started = performance.now();
    if (!input.job_id && !input.url) throw new InvalidInput('send job_id or url');
    const jobId = resolveNetworkJobId(input);
    if (!jobId) throw new InvalidInput('url carries no job id: use a /jobs/view/<id> link or a jobs page with currentJobId');
    const { value: job, wire_bytes } = await fetchNetworkJob(deps, jobId);
    return {
      search_parameters: { engine: 'network_job' as const, job_id: jobId },
      job,
      meta: { source: 'network', wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

const POSTED_WITHIN = { past_24_hours: 'r86400', past_week: 'r604800', past_month: 'r2592000' } as const;

const NetworkJobCard = z.object({
  position: z.int(),
  job_id: z.string(),
  title: z.string(),
  company: z.string().nullable(),
  company_url: z.string().nullable(),
  company_logo: z.string().nullable(),
  location: z.string().nullable(),
  posted_date: z.string().nullable(),
  posted: z.string().nullable(),
  salary: z.string().nullable(),
  benefits: z.string().nullable(),
  link: z.string().nullable(),
});

export const searchNetworkJobs = defineTool({
  name: 'search_network_jobs',
  title: 'Search job postings of the professional network',
  description:
    'One page of ten public job cards of the professional network for keywords, a location and/or company ids (company_id of get_network_job), newest filters optional. Page with next_start (absent on the last page). Costs 2 credits per non-empty page; an empty page and failures are free. Use get_network_job for the full record of a card.',
  method: 'POST',
  path: '/v1/network/jobs',
  tags: ['network'],
  input: z.strictObject({
    keywords: z.string().min(1).max(200).optional().describe('Words to search postings for, as typed in the network’s job search.'),
    location: z.string().min(1).max(200).optional().describe('Place the postings are in, e.g. Berlin or United States.'),
    company_ids: z
      .array(z.string().regex(/^\d{1,12}$/, 'Input should be a numeric company id'))
      .min(1)
      .max(20)
      .optional()
      .describe('Numeric company ids (1-20) to restrict the search to.'),
    posted_within: z.enum(['past_24_hours', 'past_week', 'past_month']).optional().describe('Only postings published within this window.'),
    start: z.int().min(0).max(1000).default(0).describe('Offset in the result list, for paging (steps of the page size).'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({
      engine: z.literal('network_jobs'),
      keywords: z.string().nullable(),
      location: z.string().nullable(),
      company_ids: z.array(z.string()),
      posted_within: z.string().nullable(),
      start: z.int(),
    }),
    jobs: z.array(NetworkJobCard),
    next_start: z.int().optional(),
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'jobs',
  isEmpty: (o) => o.jobs.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    if (!input.keywords && !input.location && !input.company_ids) throw new InvalidInput('send keywords, location or company_ids');
    const { value: jobs, wire_bytes } = await fetchNetworkSearch(deps, {
      keywords: input.keywords,
      location: input.location,
      company_ids: input.company_ids,
      posted_within: input.posted_within ? POSTED_WITHIN[input.posted_within] : undefined,
      start: input.start,
    });
    return {
      search_parameters: {
        engine: 'network_jobs' as const,
        keywords: input.keywords ?? null,
        location: input.location ?? null,
        company_ids: input.company_ids ?? [],
        posted_within: input.posted_within ?? null,
        start: input.start,
      },
      jobs,
      ...(jobs.length >= NETWORK_SEARCH_PAGE_SIZE ? { next_start: input.start + jobs.length } : {}),
      meta: { source: 'network', wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const NETWORK_TOOLS = [getNetworkJob, searchNetworkJobs];

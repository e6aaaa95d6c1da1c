import { z } from 'zod';
import { countryLower } from '../src/domain/codes.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchJobCards } from '../src/sources/jobsearch/fetch.js';
import { elapsedSince, WebMeta } from './webdata-schemas.js';

export const searchJobCards = defineTool({
  name: 'search_job_cards',
  title: 'Job search across job sites (rendered job cards)',
  description:
    "Jobs matching a query from the search engine's job cards, which aggregate many job sites: title, company, location, the site it came via, relative posted age, employment type and apply options. Rendered in a real headless browser, so a call takes seconds. Costs 3 credits; an empty result and failures are free; 503 when no browser is installed. For one company's own board use get_careers_jobs; for the professional network, search_network_jobs.",
  method: 'POST',
  path: '/v1/jobs/search',
  tags: ['jobs-search'],
  input: z.strictObject({
    q: z.string().min(1).max(300).describe('What to search for, e.g. data engineer jobs in berlin.'),
    gl: countryLower.default('us').describe('Two-letter country of the search, lower case.'),
    hl: z
      .string()
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?$/, 'Input should be a language code such as en')
      .default('en')
      .describe('Language of the search, e.g. en.'),
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('jobs_search'), q: z.string(), gl: z.string(), hl: z.string() }),
    jobs_results: z.array(
      z.object({
        title: z.string(),
        company: z.string().nullable(),
        location: z.string().nullable(),
        via: z.string().nullable(),
        posted: z.string().nullable(),
        employment_type: z.string().nullable(),
        apply_options: z.array(z.object({ source: z.string().nullable(), link: z.string() })),
      }),
    ),
    total: z.int(),
    meta: WebMeta,
  }),
  credits: 3,
  cache: 'jobs',
  isEmpty: (o) => o.jobs_results.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const answer = await fetchJobCards(deps, input);
    return {
      search_parameters: { engine: 'jobs_search' as const, q: input.q, gl: input.gl, hl: input.hl },
      jobs_results: answer.jobs,
      total: answer.jobs.length,
      meta: { source: 'jobsearch', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const JOB_SEARCH_TOOLS = [searchJobCards];

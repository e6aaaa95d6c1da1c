import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersJobRecord } from './types.js';
import { numeric, obj, textOrNull } from '../../domain/json.js';
import { isoUtc, uniq } from './values.js';

/** Sections of a posting's job ad, in page order. */
const AD_SECTIONS = ['companyDescription', 'jobDescription', 'qualifications', 'additionalInformation'];

/** One page of `GET api.smartrecruiters.com/v1/companies/<company>/postings?limit=100&offset=N`. */
export function parseSmartRecruitersPage(payload: unknown, context: { company: string }): CareersBoardPage & { offset: number; limit: number } {
  const root = obj(payload);
  if (!root || !Array.isArray(root.content)) throw new UpstreamContractChanged('careers', 'smartrecruiters content array');
  const jobs = root.content.map((p) => smartRecruitersJob(p, context.company)).filter((j): j is CareersJobRecord => j !== null);
  const companyName = textOrNull(root.content.map((p) => obj(obj(p)?.company)?.name).find((n) => textOrNull(n)));
  return {
    company_name: companyName,
    total: numeric(root.totalFound),
    jobs,
    offset: numeric(root.offset) ?? 0,
    limit: numeric(root.limit) ?? jobs.length,
  };
}

function smartRecruitersJob(raw: unknown, company: string): CareersJobRecord | null {
  const p = obj(raw);
  const id = textOrNull(p?.id);
  const title = textOrNull(p?.name);
  if (!p || !id || !title) return null;
  const loc = obj(p.location) ?? {};
  const companyId = textOrNull(obj(p.company)?.identifier) ?? company;
  return {
    job_id: id,
    title,
    department: textOrNull(obj(p.department)?.label),
    locations: uniq([textOrNull(loc.fullLocation) ?? uniq([textOrNull(loc.city), textOrNull(loc.region), textOrNull(loc.country)]).join(', ')]),
    posted_at: isoUtc(p.releasedDate),
    updated_at: null,
    url: `https://jobs.smartrecruiters.com/${encodeURIComponent(companyId)}/${encodeURIComponent(id)}`,
    employment_type: textOrNull(obj(p.typeOfEmployment)?.label),
    compensation: null,
    ats: 'smartrecruiters',
    remote: typeof loc.remote === 'boolean' ? loc.remote : null,
  };
}

/** `GET api.smartrecruiters.com/v1/companies/<company>/postings/<id>`: the job ad text. */
export function parseSmartRecruitersPosting(payload: unknown): { job_id: string | null; description_text: string | null; url: string | null } {
  const root = obj(payload);
  if (!root) throw new UpstreamContractChanged('careers', 'smartrecruiters posting object');
  const sections = obj(obj(obj(root.jobAd)?.sections));
  const parts = AD_SECTIONS.map((k) => obj(sections?.[k]))
    .filter((s) => s && textOrNull(s.text))
    .map((s) => [textOrNull(s!.title), htmlToText(String(s!.text))].filter(Boolean).join('\n'));
  return {
    job_id: textOrNull(root.id),
    description_text: parts.length ? parts.join('\n\n') : null,
    url: textOrNull(root.postingUrl) ?? textOrNull(root.applyUrl),
  };
}

/** Whether another list page follows this one (the caller also stops at SMARTRECRUITERS_MAX_PAGES). */
export function hasMoreSmartRecruiters(page: { offset: number; limit: number; total: number | null; jobs: unknown[] }): boolean {
  if (page.jobs.length === 0) return false;
  return page.total !== null ? page.offset + page.jobs.length < page.total : page.jobs.length >= page.limit;
}

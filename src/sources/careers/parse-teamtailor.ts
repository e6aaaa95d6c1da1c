import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, isoUtc, num, obj, payPeriod, str, uniq } from './values.js';

/** `GET <career site>/jobs.json`: a JSON Feed 1.1 whose items carry a schema.org JobPosting. */
export function parseTeamtailorBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.items)) throw new UpstreamContractChanged('careers', 'teamtailor feed items');
  const jobs = root.items.map(teamtailorJob).filter((j): j is CareersJobRecord => j !== null);
  return { company_name: str(root.title), total: jobs.length, jobs };
}

function teamtailorJob(raw: unknown): CareersJobRecord | null {
  const item = obj(raw);
  const posting = obj(item?._jobposting) ?? {};
  const id = str(obj(posting.identifier)?.value) ?? str(item?.id);
  const title = str(item?.title) ?? str(posting.title);
  if (!item || !id || !title) return null;
  const places = arr(posting.jobLocation).map((p) => {
    const a = obj(obj(p)?.address);
    return uniq([str(a?.addressLocality), str(a?.addressCountry)]).join(', ');
  });
  const html = str(item.content_html) ?? str(posting.description);
  const locationType = str(posting.jobLocationType);
  return {
    job_id: id,
    title,
    department: null,
    locations: uniq(places),
    posted_at: isoUtc(posting.datePosted ?? item.date_published),
    updated_at: isoUtc(item.date_modified),
    url: str(item.url),
    employment_type: Array.isArray(posting.employmentType) ? uniq(posting.employmentType.map(str)).join(', ') || null : str(posting.employmentType),
    compensation: teamtailorCompensation(posting),
    ats: 'teamtailor',
    description_text: html ? htmlToText(html) || null : null,
    remote: locationType ? locationType.toUpperCase() === 'TELECOMMUTE' : null,
  };
}

function teamtailorCompensation(posting: Record<string, any>): CareersCompensation | null {
  const salary = obj(posting.baseSalary);
  const value = obj(salary?.value);
  const min = num(value?.minValue);
  const max = num(value?.maxValue);
  if (min === null || max === null) return null;
  return { min, max, currency: str(salary?.currency), period: payPeriod(value?.unitText), text: null };
}

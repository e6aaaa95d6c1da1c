import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, numeric, obj, textOrNull, type JsonObject } from '../../domain/json.js';
import { isoUtc, payPeriod, uniq } from './values.js';

/** `GET <career site>/jobs.json`: a JSON Feed 1.1 whose items carry a schema.org JobPosting. */
export function parseTeamtailorBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.items)) throw new UpstreamContractChanged('careers', 'teamtailor feed items');
  const jobs = root.items.map(teamtailorJob).filter((j): j is CareersJobRecord => j !== null);
  return { company_name: textOrNull(root.title), total: jobs.length, jobs };
}

function teamtailorJob(raw: unknown): CareersJobRecord | null {
  const item = obj(raw);
  const posting = obj(item?._jobposting) ?? {};
  const id = textOrNull(obj(posting.identifier)?.value) ?? textOrNull(item?.id);
  const title = textOrNull(item?.title) ?? textOrNull(posting.title);
  if (!item || !id || !title) return null;
  const places = arr(posting.jobLocation).map((p) => {
    const a = obj(obj(p)?.address);
    return uniq([textOrNull(a?.addressLocality), textOrNull(a?.addressCountry)]).join(', ');
  });
  const html = textOrNull(item.content_html) ?? textOrNull(posting.description);
  const locationType = textOrNull(posting.jobLocationType);
  return {
    job_id: id,
    title,
    department: null,
    locations: uniq(places),
    posted_at: isoUtc(posting.datePosted ?? item.date_published),
    updated_at: isoUtc(item.date_modified),
    url: textOrNull(item.url),
    employment_type: Array.isArray(posting.employmentType)
      ? uniq(posting.employmentType.map((v) => textOrNull(v))).join(', ') || null
      : textOrNull(posting.employmentType),
    compensation: teamtailorCompensation(posting),
    ats: 'teamtailor',
    description_text: html ? htmlToText(html) || null : null,
    remote: locationType ? locationType.toUpperCase() === 'TELECOMMUTE' : null,
  };
}

function teamtailorCompensation(posting: JsonObject): CareersCompensation | null {
  const salary = obj(posting.baseSalary);
  const value = obj(salary?.value);
  const min = numeric(value?.minValue);
  const max = numeric(value?.maxValue);
  if (min === null || max === null) return null;
  return { min, max, currency: textOrNull(salary?.currency), period: payPeriod(value?.unitText), text: null };
}

import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, isoUtc, num, obj, payPeriod, str, uniq } from './values.js';

/** `GET api.lever.co/v0/postings/<company>?mode=json`: a bare array of postings. */
export function parseLeverBoard(payload: unknown): CareersBoardPage {
  if (!Array.isArray(payload)) throw new UpstreamContractChanged('careers', 'lever postings array');
  const jobs = payload.map(leverJob).filter((j): j is CareersJobRecord => j !== null);
  return { company_name: null, total: jobs.length, jobs };
}

function leverJob(raw: unknown): CareersJobRecord | null {
  const j = obj(raw);
  const id = str(j?.id);
  const title = str(j?.text);
  if (!j || !id || !title) return null;
  const cat = obj(j.categories) ?? {};
  const workplace = str(j.workplaceType);
  return {
    job_id: id,
    title,
    department: str(cat.department) ?? str(cat.team),
    locations: uniq(arr(cat.allLocations).length ? arr(cat.allLocations).map(str) : [str(cat.location)]),
    // Lever publishes a posting when it is created; createdAt is the only date it exposes.
    posted_at: isoUtc(num(j.createdAt)),
    updated_at: null,
    url: str(j.hostedUrl),
    employment_type: str(cat.commitment),
    compensation: leverCompensation(j),
    ats: 'lever',
    description_text: leverDescription(j),
    remote: workplace ? workplace.toLowerCase() === 'remote' : null,
  };
}

function leverCompensation(j: Record<string, any>): CareersCompensation | null {
  const range = obj(j.salaryRange);
  const min = num(range?.min);
  const max = num(range?.max);
  if (min === null || max === null) return null;
  return { min, max, currency: str(range?.currency), period: payPeriod(range?.interval), text: str(j.salaryDescriptionPlain) };
}

function leverDescription(j: Record<string, any>): string | null {
  const parts: string[] = [];
  const opening = str(j.descriptionPlain);
  if (opening) parts.push(opening);
  for (const list of arr(j.lists)) {
    const l = obj(list);
    const heading = str(l?.text);
    const body = str(l?.content) ? htmlToText(`<ul>${l!.content}</ul>`) : null;
    const block = [heading, body].filter(Boolean).join('\n');
    if (block) parts.push(block);
  }
  const closing = str(j.additionalPlain);
  if (closing) parts.push(closing);
  return parts.length ? parts.join('\n\n') : null;
}

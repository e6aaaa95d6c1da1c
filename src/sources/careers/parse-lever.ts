import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, numeric, obj, textOrNull, type JsonObject } from '../../domain/json.js';
import { isoUtc, payPeriod, uniq } from './values.js';

/** `GET api.lever.co/v0/postings/<company>?mode=json`: a bare array of postings. */
export function parseLeverBoard(payload: unknown): CareersBoardPage {
  if (!Array.isArray(payload)) throw new UpstreamContractChanged('careers', 'lever postings array');
  const jobs = payload.map(leverJob).filter((j): j is CareersJobRecord => j !== null);
  return { company_name: null, total: jobs.length, jobs };
}

function leverJob(raw: unknown): CareersJobRecord | null {
  const j = obj(raw);
  const id = textOrNull(j?.id);
  const title = textOrNull(j?.text);
  if (!j || !id || !title) return null;
  const cat = obj(j.categories) ?? {};
  const workplace = textOrNull(j.workplaceType);
  return {
    job_id: id,
    title,
    department: textOrNull(cat.department) ?? textOrNull(cat.team),
    locations: uniq(arr(cat.allLocations).length ? arr(cat.allLocations).map((v) => textOrNull(v)) : [textOrNull(cat.location)]),
    // Lever publishes a posting when it is created; createdAt is the only date it exposes.
    posted_at: isoUtc(numeric(j.createdAt)),
    updated_at: null,
    url: textOrNull(j.hostedUrl),
    employment_type: textOrNull(cat.commitment),
    compensation: leverCompensation(j),
    ats: 'lever',
    description_text: leverDescription(j),
    remote: workplace ? workplace.toLowerCase() === 'remote' : null,
  };
}

function leverCompensation(j: JsonObject): CareersCompensation | null {
  const range = obj(j.salaryRange);
  const min = numeric(range?.min);
  const max = numeric(range?.max);
  if (min === null || max === null) return null;
  return { min, max, currency: textOrNull(range?.currency), period: payPeriod(range?.interval), text: textOrNull(j.salaryDescriptionPlain) };
}

function leverDescription(j: JsonObject): string | null {
  const parts: string[] = [];
  const opening = textOrNull(j.descriptionPlain);
  if (opening) parts.push(opening);
  for (const list of arr(j.lists)) {
    const l = obj(list);
    const heading = textOrNull(l?.text);
    const content = textOrNull(l?.content);
    const body = content ? htmlToText(`<ul>${content}</ul>`) : null;
    const block = [heading, body].filter(Boolean).join('\n');
    if (block) parts.push(block);
  }
  const closing = textOrNull(j.additionalPlain);
  if (closing) parts.push(closing);
  return parts.length ? parts.join('\n\n') : null;
}

import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, numeric, obj, textOrNull, type JsonObject } from '../../domain/json.js';
import { isoUtc, payPeriod, uniq } from './values.js';

/** `GET <company>.recruitee.com/api/offers/`. */
export function parseRecruiteeBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.offers)) throw new UpstreamContractChanged('careers', 'recruitee offers array');
  const offers = root.offers.filter((o) => {
    const status = textOrNull(obj(o)?.status);
    return status === null || status === 'published';
  });
  const jobs = offers.map(recruiteeJob).filter((j): j is CareersJobRecord => j !== null);
  const companyName = textOrNull(offers.map((o) => obj(o)?.company_name).find((n) => textOrNull(n)));
  return { company_name: companyName, total: jobs.length, jobs };
}

function recruiteeJob(raw: unknown): CareersJobRecord | null {
  const o = obj(raw);
  const id = textOrNull(o?.id);
  const title = textOrNull(o?.title);
  if (!o || !id || !title) return null;
  const extra = arr(o.locations).length > 1 ? arr(o.locations).map((l) => textOrNull(obj(l)?.name)) : [];
  const html = [textOrNull(o.description), textOrNull(o.requirements)].filter(Boolean).join('');
  return {
    job_id: id,
    title,
    department: textOrNull(o.department),
    locations: uniq([textOrNull(o.location), ...extra]),
    posted_at: isoUtc(o.published_at),
    updated_at: isoUtc(o.updated_at),
    url: textOrNull(o.careers_url),
    employment_type: textOrNull(o.employment_type_code),
    compensation: recruiteeCompensation(o),
    ats: 'recruitee',
    description_text: html ? htmlToText(html) || null : null,
    remote: typeof o.remote === 'boolean' ? o.remote : null,
  };
}

function recruiteeCompensation(o: JsonObject): CareersCompensation | null {
  const s = obj(o.salary);
  const min = numeric(s?.min);
  const max = numeric(s?.max);
  if (min === null || max === null) return null;
  return { min, max, currency: textOrNull(s?.currency), period: payPeriod(s?.period), text: null };
}

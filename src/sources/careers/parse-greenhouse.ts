import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersJobRecord } from './types.js';
import { arr, numeric, obj, str, textOrNull } from '../../domain/json.js';
import { decodeEntities, isoUtc, uniq } from './values.js';

/** Custom metadata field that boards use for the employment type (Greenhouse has no native one). */
const EMPLOYMENT_TYPE_FIELD = /^employment type$/i;
const REMOTE = /\bremote\b/i;

/** `GET boards-api.greenhouse.io/v1/boards/<token>/jobs?content=true`. */
export function parseGreenhouseBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.jobs)) throw new UpstreamContractChanged('careers', 'greenhouse jobs array');
  const jobs = root.jobs.map(greenhouseJob).filter((j): j is CareersJobRecord => j !== null);
  const companyName = textOrNull(
    arr(root.jobs)
      .map((j) => obj(j)?.company_name)
      .find((n) => textOrNull(n)),
  );
  return { company_name: companyName, total: numeric(obj(root.meta)?.total), jobs };
}

function greenhouseJob(raw: unknown): CareersJobRecord | null {
  const j = obj(raw);
  const id = textOrNull(j?.id);
  const title = textOrNull(j?.title);
  if (!j || !id || !title) return null;
  const offices = arr(j.offices).map((o) => obj(o));
  const locationName = textOrNull(obj(j.location)?.name);
  const places = uniq([locationName, ...offices.map((o) => textOrNull(o?.name))]);
  const employment = arr(j.metadata)
    .map((m) => obj(m))
    .find((m) => m && EMPLOYMENT_TYPE_FIELD.test(str(m, 'name') ?? ''));
  const content = textOrNull(j.content);
  return {
    job_id: id,
    title,
    department: uniq(arr(j.departments).map((d) => textOrNull(obj(d)?.name))).join(', ') || null,
    locations: uniq([locationName]),
    posted_at: isoUtc(j.first_published),
    updated_at: isoUtc(j.updated_at),
    url: textOrNull(j.absolute_url),
    employment_type: employment ? textOrNull(Array.isArray(employment.value) ? employment.value.join(', ') : employment.value) : null,
    compensation: null,
    ats: 'greenhouse',
    description_text: content ? htmlToText(decodeEntities(content)) || null : null,
    remote: places.some((p) => REMOTE.test(p)) ? true : null,
  };
}

/** `GET boards-api.greenhouse.io/v1/boards/<token>`: the board's company name, for the domain fallback check. */
export function parseGreenhouseBoardInfo(payload: unknown): { name: string | null } {
  const root = obj(payload);
  if (!root) throw new UpstreamContractChanged('careers', 'greenhouse board object');
  return { name: textOrNull(root.name) };
}

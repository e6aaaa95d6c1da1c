import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoardPage, CareersJobRecord } from './types.js';
import { arr, obj, textOrNull, type JsonObject } from '../../domain/json.js';
import { isoUtc, uniq } from './values.js';

/**
 * `GET apply.workable.com/api/v1/widget/accounts/<account>?details=true`. The widget lists a
 * job once per location with the same shortcode; those rows are merged into one job.
 */
export function parseWorkableBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.jobs)) throw new UpstreamContractChanged('careers', 'workable jobs array');
  const byCode = new Map<string, CareersJobRecord>();
  for (const raw of root.jobs) {
    const j = obj(raw);
    const code = textOrNull(j?.shortcode);
    const title = textOrNull(j?.title);
    if (!j || !code || !title) continue;
    const locations = workableLocations(j);
    const seen = byCode.get(code);
    if (seen) {
      seen.locations = uniq([...seen.locations, ...locations]);
      continue;
    }
    const description = textOrNull(j.description);
    byCode.set(code, {
      job_id: code,
      title,
      department: textOrNull(j.department),
      locations,
      posted_at: isoUtc(j.published_on),
      updated_at: null,
      url: textOrNull(j.url) ?? textOrNull(j.shortlink),
      employment_type: textOrNull(j.employment_type),
      compensation: null,
      ats: 'workable',
      description_text: description ? htmlToText(description) || null : null,
      remote: typeof j.telecommuting === 'boolean' ? j.telecommuting : null,
    });
  }
  const jobs = [...byCode.values()];
  return { company_name: textOrNull(root.name), total: jobs.length, jobs };
}

function workableLocations(j: JsonObject): string[] {
  const listed = arr(j.locations)
    .map((l) => obj(l))
    .filter((l) => l && l.hidden !== true)
    .map((l) => uniq([textOrNull(l!.city), textOrNull(l!.region), textOrNull(l!.country)]).join(', '));
  if (listed.some(Boolean)) return uniq(listed);
  return uniq([uniq([textOrNull(j.city), textOrNull(j.state), textOrNull(j.country)]).join(', ')]);
}

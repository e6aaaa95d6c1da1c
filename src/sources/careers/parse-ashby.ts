import { UpstreamContractChanged } from '../../domain/errors.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, numeric, obj, str, textOrNull, type JsonObject } from '../../domain/json.js';
import { isoUtc, payPeriod, uniq } from './values.js';

/** `GET api.ashbyhq.com/posting-api/job-board/<org>?includeCompensation=true`. */
export function parseAshbyBoard(payload: unknown): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.jobs)) throw new UpstreamContractChanged('careers', 'ashby jobs array');
  const jobs = root.jobs
    .filter((j) => obj(j)?.isListed !== false)
    .map(ashbyJob)
    .filter((j): j is CareersJobRecord => j !== null);
  return { company_name: null, total: jobs.length, jobs };
}

function ashbyJob(raw: unknown): CareersJobRecord | null {
  const j = obj(raw);
  const id = textOrNull(j?.id);
  const title = textOrNull(j?.title);
  if (!j || !id || !title) return null;
  const workplace = textOrNull(j.workplaceType);
  return {
    job_id: id,
    title,
    department: textOrNull(j.department) ?? textOrNull(j.team),
    locations: uniq([textOrNull(j.location), ...arr(j.secondaryLocations).map((l) => textOrNull(obj(l)?.location))]),
    posted_at: isoUtc(j.publishedAt),
    updated_at: null,
    url: textOrNull(j.jobUrl),
    employment_type: textOrNull(j.employmentType),
    compensation: ashbyCompensation(j),
    ats: 'ashby',
    description_text: textOrNull(j.descriptionPlain),
    // workplaceType is the system's label; isRemote is also true for hybrid roles.
    remote: workplace ? workplace.toLowerCase() === 'remote' : typeof j.isRemote === 'boolean' ? j.isRemote : null,
  };
}

function ashbyCompensation(j: JsonObject): CareersCompensation | null {
  if (j.shouldDisplayCompensationOnJobPostings === false) return null;
  const comp = obj(j.compensation);
  const salary = arr(comp?.summaryComponents)
    .map((c) => obj(c))
    .find((c) => c && (str(c, 'compensationType') ?? '').toLowerCase() === 'salary' && numeric(c.minValue) !== null && numeric(c.maxValue) !== null);
  if (!salary) return null;
  return {
    min: numeric(salary.minValue)!,
    max: numeric(salary.maxValue)!,
    currency: textOrNull(salary.currencyCode),
    period: payPeriod(salary.interval),
    text: textOrNull(comp?.compensationTierSummary) ?? textOrNull(comp?.scrapeableCompensationSalarySummary),
  };
}

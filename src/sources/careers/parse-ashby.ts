import { UpstreamContractChanged } from '../../domain/errors.js';
import type { CareersBoardPage, CareersCompensation, CareersJobRecord } from './types.js';
import { arr, isoUtc, num, obj, payPeriod, str, uniq } from './values.js';

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
  const id = str(j?.id);
  const title = str(j?.title);
  if (!j || !id || !title) return null;
  const workplace = str(j.workplaceType);
  return {
    job_id: id,
    title,
    department: str(j.department) ?? str(j.team),
    locations: uniq([str(j.location), ...arr(j.secondaryLocations).map((l) => str(obj(l)?.location))]),
    posted_at: isoUtc(j.publishedAt),
    updated_at: null,
    url: str(j.jobUrl),
    employment_type: str(j.employmentType),
    compensation: ashbyCompensation(j),
    ats: 'ashby',
    description_text: str(j.descriptionPlain),
    // workplaceType is the system's label; isRemote is also true for hybrid roles.
    remote: workplace ? workplace.toLowerCase() === 'remote' : typeof j.isRemote === 'boolean' ? j.isRemote : null,
  };
}

function ashbyCompensation(j: Record<string, any>): CareersCompensation | null {
  if (j.shouldDisplayCompensationOnJobPostings === false) return null;
  const comp = obj(j.compensation);
  const salary = arr(comp?.summaryComponents)
    .map((c) => obj(c))
    .find((c) => c && String(c.compensationType ?? '').toLowerCase() === 'salary' && num(c.minValue) !== null && num(c.maxValue) !== null);
  if (!salary) return null;
  return {
    min: num(salary.minValue)!,
    max: num(salary.maxValue)!,
    currency: str(salary.currencyCode),
    period: payPeriod(salary.interval),
    text: str(comp?.compensationTierSummary) ?? str(comp?.scrapeableCompensationSalarySummary),
  };
}

/** Applicant-tracking systems the careers routes read (lowercase identifiers of the contract). */
export const CAREERS_ATS = ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'workday', 'recruitee', 'teamtailor'] as const;
export type CareersAts = (typeof CAREERS_ATS)[number];

/** Names used in the 422 detail that lists the supported systems. */
export const CAREERS_ATS_NAMES: Record<CareersAts, string> = {
  greenhouse: 'Greenhouse',
  lever: 'Lever',
  ashby: 'Ashby',
  workable: 'Workable',
  smartrecruiters: 'SmartRecruiters',
  workday: 'Workday',
  recruitee: 'Recruitee',
  teamtailor: 'Teamtailor',
};

export function supportedSystemsText(): string {
  return CAREERS_ATS.map((a) => CAREERS_ATS_NAMES[a]).join(', ');
}

/** One board of one system, enough to build its API requests. */
export interface CareersBoard {
  ats: CareersAts;
  /** The system's board identifier (Workday: `<tenant>/<site>`; custom-domain boards: the host). */
  board: string;
  /** Public board page. */
  board_url: string;
  /** Host serving the board API when it is not the system's shared API host. */
  host?: string;
  /** Lever and Greenhouse boards hosted in the EU region. */
  region?: 'eu';
  /** Workday only. */
  tenant?: string;
  site?: string;
}

export const PAY_PERIODS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type PayPeriod = (typeof PAY_PERIODS)[number];

export interface CareersCompensation {
  min: number;
  max: number;
  currency: string | null;
  /** What min and max are paid per, as the board states it; null when it states none. */
  period: PayPeriod | null;
  text: string | null;
}

/** The contract's Job of `/v1/careers/jobs`. */
export interface CareersJob {
  job_id: string;
  title: string;
  department: string | null;
  locations: string[];
  posted_at: string | null;
  updated_at: string | null;
  url: string | null;
  employment_type: string | null;
  compensation: CareersCompensation | null;
  ats: CareersAts;
  description_text?: string | null;
}

/** A parsed job plus what the filters need and the contract does not show. */
export interface CareersJobRecord extends CareersJob {
  /** true when the system labels the job remote, false when it labels it otherwise, null when silent. */
  remote: boolean | null;
}

export interface CareersBoardPage {
  company_name: string | null;
  /** The system's own count of open jobs, before our filters; null when it states none. */
  total: number | null;
  jobs: CareersJobRecord[];
}

/** The contract's Job from a record: drops the filter-only fields, keeps the description only when asked. */
export function toCareersJob(r: CareersJobRecord, includeDescription: boolean): CareersJob {
  const { remote: _remote, description_text, ...job } = r;
  return includeDescription ? { ...job, description_text: description_text ?? null } : job;
}

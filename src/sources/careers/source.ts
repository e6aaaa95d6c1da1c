import type { SourceManifest } from '../manifest.js';

/** Companies' job boards on the applicant tracking systems (hosts.ts here), reached through safe-fetch. */
export const careersSource: SourceManifest = {
  alias: 'careers',
  realName: 'applicant tracking systems (Greenhouse, Lever, Ashby, Workday …)',
  hosts: null,
  check: () => ({ operation: 'get_careers_jobs', input: { url: 'https://boards.greenhouse.io/amplitude', limit: 1 }, checked: 'board greenhouse/amplitude' }),
  compare: null,
  guards: null,
};

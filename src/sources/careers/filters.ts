import type { CareersJobRecord } from './types.js';

export interface CareersFilters {
  /** Title contains. */
  q?: string | null;
  /** Any location contains. */
  location?: string | null;
  /** Department or team contains. */
  department?: string | null;
  /** Only jobs the system labels remote. */
  remote_only?: boolean;
}

function contains(haystack: string | null | undefined, needle: string): boolean {
  return !!haystack && haystack.toLocaleLowerCase().includes(needle);
}

function norm(v: string | null | undefined): string | null {
  const t = v?.trim().toLocaleLowerCase();
  return t ? t : null;
}

/** Case-insensitive contains filters of `/v1/careers/jobs`; all given filters must hold. */
export function matchesCareersFilters(job: CareersJobRecord, f: CareersFilters): boolean {
  const q = norm(f.q);
  const location = norm(f.location);
  const department = norm(f.department);
  if (q && !contains(job.title, q)) return false;
  if (location && !job.locations.some((l) => contains(l, location))) return false;
  if (department && !contains(job.department, department)) return false;
  if (f.remote_only && job.remote !== true) return false;
  return true;
}

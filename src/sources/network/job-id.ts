/** Job ids of the network are 6 to 12 digits. */
const JOB_ID = /^\d{6,12}$/;
/** `/jobs/view/<id>` or `/jobs/view/<slug>-<id>`, optionally with a trailing slash. */
const VIEW_PATH = /\/jobs\/view\/(?:[^/?#]*?-)?(\d{6,12})(?:[/?#]|$)/;
/** Guest API fragment paths carry the id too. */
const POSTING_PATH = /\/jobs-guest\/jobs\/api\/jobPosting\/(\d{6,12})(?:[/?#]|$)/;

/** The job id in a posting link (`/jobs/view/<id>`) or in a `currentJobId` parameter; null when absent. */
export function networkJobIdFromUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const current = url.searchParams.get('currentJobId');
  if (current && JOB_ID.test(current)) return current;
  const m = VIEW_PATH.exec(url.pathname) ?? POSTING_PATH.exec(url.pathname);
  return m?.[1] ?? null;
}

/** The id from a body carrying job_id and/or url; job_id wins when both are given. */
export function resolveNetworkJobId(input: { job_id?: string | null; url?: string | null }): string | null {
  if (input.job_id && JOB_ID.test(input.job_id)) return input.job_id;
  return input.url ? networkJobIdFromUrl(input.url) : null;
}

import { UpstreamContractChanged } from '../../domain/errors.js';
import { htmlToText } from '../network/html-reduce.js';
import type { CareersBoard, CareersBoardPage, CareersJobRecord } from './types.js';
import { arr, numeric, obj, textOrNull } from '../../domain/json.js';
import { isoUtc, uniq } from './values.js';

/** Requisition id at the end of a posting path: `/job/<place>/<Title>_<REQ-ID>`. */
const REQ_ID = /_([A-Za-z0-9-]+)$/;

function boardOrigin(board: CareersBoard): string {
  return `https://${board.host}`;
}

/** The public posting URL from a list item's externalPath. */
function workdayJobUrl(board: CareersBoard, externalPath: string): string {
  return `${boardOrigin(board)}/${board.site}${externalPath}`;
}

/** One page of `POST <host>/wday/cxs/<tenant>/<site>/jobs` (20 per page). */
export function parseWorkdayPage(payload: unknown, context: { board: CareersBoard }): CareersBoardPage {
  const root = obj(payload);
  if (!root || !Array.isArray(root.jobPostings)) throw new UpstreamContractChanged('careers', 'workday jobPostings array');
  const jobs = root.jobPostings.map((p) => workdayListJob(p, context.board)).filter((j): j is CareersJobRecord => j !== null);
  // Workday states the total on the first page only; later pages say 0.
  const total = numeric(root.total);
  return { company_name: null, total: total && total > 0 ? total : null, jobs };
}

function workdayListJob(raw: unknown, board: CareersBoard): CareersJobRecord | null {
  const p = obj(raw);
  const path = textOrNull(p?.externalPath);
  const title = textOrNull(p?.title);
  if (!p || !path || !title) return null;
  const remoteType = textOrNull(p.remoteType);
  return {
    job_id: REQ_ID.exec(path)?.[1] ?? path,
    title,
    department: null,
    locations: uniq([textOrNull(p.locationsText)]),
    // postedOn is relative text ("Posted 30+ Days Ago"), not a date.
    posted_at: null,
    updated_at: null,
    url: workdayJobUrl(board, path),
    employment_type: textOrNull(p.timeType),
    compensation: null,
    ats: 'workday',
    remote: remoteType ? remoteType.toLowerCase() === 'remote' : null,
  };
}

function missingId(): never {
  throw new UpstreamContractChanged('careers', 'workday jobPostingInfo.jobReqId');
}

/** `GET <host>/wday/cxs/<tenant>/<site>/job/<...>`: one posting in full. */
export function parseWorkdayJob(payload: unknown): CareersJobRecord & { company_name: string | null } {
  const root = obj(payload);
  const info = obj(root?.jobPostingInfo);
  const title = textOrNull(info?.title);
  if (!root || !info || !title) throw new UpstreamContractChanged('careers', 'workday jobPostingInfo');
  const description = textOrNull(info.jobDescription);
  const remoteType = textOrNull(info.remoteType);
  return {
    job_id: textOrNull(info.jobReqId) ?? textOrNull(info.jobPostingId) ?? textOrNull(info.id) ?? missingId(),
    title,
    department: null,
    locations: uniq([textOrNull(info.location), ...arr(info.additionalLocations).map((v) => textOrNull(v))]),
    // startDate is the posting's start (the date it went live), which postedOn counts from.
    posted_at: isoUtc(info.startDate),
    updated_at: null,
    url: textOrNull(info.externalUrl),
    employment_type: textOrNull(info.timeType),
    compensation: null,
    ats: 'workday',
    description_text: description ? htmlToText(description) || null : null,
    remote: remoteType ? remoteType.toLowerCase() === 'remote' : null,
    company_name: textOrNull(obj(root.hiringOrganization)?.name),
  };
}

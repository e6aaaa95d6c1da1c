/**
 * The hotel price calendar of the metasearch engine: the travel front end's batchexecute RPC
 * `yY52ce`, asked for one property over a window of check-in dates at a fixed length of stay.
 *   POST /_/TravelFrontendUi/data/batchexecute?rpcids=yY52ce&source-path=/travel/hotels/entity/<token>&hl&gl&rt=c
 *   f.req=[[["yY52ce","[null,[[y,m,d],[y,m,d],<los>],null,\"<token>\",\"<CUR>\"]",null,"generic"]]]
 * The inner reply lists, at [1], one rate block per check-in date, in the layout of the search
 * page's rate block (see hotels/parse-property.ts RATE_PATHS), so `parseRate` reads both.
 * Public clients ask one month per call; so do we.
 */
import { addDays, nightsBetween } from '../../../domain/dates.js';
import { UpstreamContractChanged } from '../../../domain/errors.js';
import { batchexecuteBody, rpcPayload, rpcPayloadOfBytes } from '../batchexecute.js';
import { parseRate, type RateRecord } from '../hotels/parse-property.js';

export const CALENDAR_RPC = 'yY52ce';
const WINDOW_DAYS = 31;
const RPC_PATH = '/_/TravelFrontendUi/data/batchexecute';

export interface CalendarWindow {
  /** First and last check-in date of the window, inclusive. */
  first: string;
  last: string;
}

export interface CalendarRpcRequest {
  path: string;
  query: Record<string, string>;
  body: string;
  headers: Record<string, string>;
}

const ymd = (date: string) => date.split('-').map(Number);

/** Splits `days` check-in dates from `start` into windows of at most WINDOW_DAYS. */
export function calendarWindows(start: string, days: number): CalendarWindow[] {
  const out: CalendarWindow[] = [];
  for (let i = 0; i < days; i += WINDOW_DAYS) out.push({ first: addDays(start, i), last: addDays(start, Math.min(days, i + WINDOW_DAYS) - 1) });
  return out;
}

export function buildCalendarRpc(opts: {
  token: string;
  window: CalendarWindow;
  los: number;
  adults: number;
  currency: string;
  gl: string;
  hl: string;
}): CalendarRpcRequest {
  const args = [null, [ymd(opts.window.first), ymd(opts.window.last), opts.los], null, opts.token, opts.currency];
  return {
    path: RPC_PATH,
    query: {
      rpcids: CALENDAR_RPC,
      'source-path': `/travel/hotels/entity/${opts.token}`,
      hl: opts.hl,
      gl: opts.gl,
      'soc-app': '162',
      'soc-platform': '1',
      'soc-device': '1',
      rt: 'c',
    },
    body: batchexecuteBody(CALENDAR_RPC, args),
    headers: {
      'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      'x-same-domain': '1',
      // locale, market, currency and occupancy as the front end sends them with priced sessions
      'x-goog-ext-259736195-jspb': JSON.stringify([
        `${opts.hl}-${opts.gl.toUpperCase()}`,
        opts.gl.toUpperCase(),
        opts.currency,
        opts.adults,
        null,
        [0],
        null,
        null,
        7,
        [],
      ]),
    },
  };
}

/** Whether an entry priced another length of stay than asked (by its stated nights or dates). */
function otherStay(rate: RateRecord, los: number): boolean {
  if (rate.nights !== null && rate.nights !== los) return true;
  return rate.check_in !== null && rate.check_out !== null && nightsBetween(rate.check_in, rate.check_out) !== los;
}

/**
 * Every priced check-in of one reply, keyed by check-in date; unpriced entries are absent, and so
 * are entries priced for another length of stay than `los` (they are no answer for the asked stay).
 */
export function parseCalendarRpc(text: string, los?: number): Map<string, RateRecord> {
  return calendarEntries(rpcPayload(text, CALENDAR_RPC), los);
}

/** parseCalendarRpc of a reply body in UTF-8, read from its bytes (rpcPayloadOfBytes). */
export function parseCalendarReply(body: Buffer, los?: number): Map<string, RateRecord> {
  return calendarEntries(rpcPayloadOfBytes(body, CALENDAR_RPC), los);
}

function calendarEntries(inner: unknown, los: number | undefined): Map<string, RateRecord> {
  if (!Array.isArray(inner)) throw new UpstreamContractChanged('metasearch', 'calendar reply is not a list');
  const entries: unknown = inner[1];
  if (entries === null || entries === undefined) return new Map(); // nothing bookable in the window
  if (!Array.isArray(entries)) throw new UpstreamContractChanged('metasearch', 'calendar entries missing at [1]');
  const out = new Map<string, RateRecord>();
  for (const entry of entries) {
    const rate = parseRate(entry);
    if (!rate?.check_in || (rate.total_exact === null && rate.total === null && rate.nightly === null)) continue;
    if (los !== undefined && otherStay(rate, los)) continue;
    out.set(rate.check_in, rate);
  }
  return out;
}

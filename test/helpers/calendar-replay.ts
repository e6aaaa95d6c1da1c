import { addDays } from '../../src/domain/dates.js';
import type { ReplayRoute } from '../replay/server.js';
import { askedWindow, calendarReply, rateEntry, realRateBlock } from './calendar-payload.js';

/** Prices a check-in at a length of stay; null = the upstream has no bookable offer. */
export type Pricer = (date: string, los: number, token: string) => number | null;

/** A replay route answering the calendar RPC from `pricer`, on a real rate block. */
export function calendarRoute(pricer: Pricer, extra: Partial<ReplayRoute> = {}, templateFixture?: string): ReplayRoute {
  const template = realRateBlock(templateFixture);
  return {
    method: 'POST',
    path: '/_/TravelFrontendUi/data/batchexecute',
    query: { rpcids: 'yY52ce' },
    headers: { 'content-type': 'application/json; charset=utf-8' },
    reply(req) {
      const w = askedWindow(req.body);
      const entries: unknown[] = [];
      for (let d = w.first; d <= w.last; d = addDays(d, 1)) {
        const total = pricer(d, w.los, w.token);
        if (total !== null) entries.push(rateEntry(template, d, w.los, { total }));
      }
      return calendarReply(entries);
    },
    ...extra,
  };
}

import type { Tool } from '../src/registry/define-tool.js';
import { billing, billingPlans, ledger, markets } from './account.js';
import { requestRecord, usage } from './history.js';
import { CALENDAR_TOOLS, serpCalendar } from './calendar.js';
import { compatSearch } from './compat-search.js';
import { FLIGHT_ENGINES, FLIGHT_TOOLS } from './flights.js';
import { WEBDATA_TOOLS } from './webdata.js';
import { createJob, getJob } from './jobs.js';

/** The registry: every operation of the service, and nothing else defines one. */
/** Engines of GET /api/v1/search: each is the /v1/serp/<engine> operation of that name. */
const ENGINES: Record<string, Tool> = { metasearch_hotels_calendar: serpCalendar, ...FLIGHT_ENGINES };

export const TOOLS: Tool[] = [billingPlans, billing, ledger, markets, usage, requestRecord, ...CALENDAR_TOOLS, ...FLIGHT_TOOLS, ...WEBDATA_TOOLS, createJob, getJob, compatSearch(ENGINES, 'metasearch_hotels_calendar')];

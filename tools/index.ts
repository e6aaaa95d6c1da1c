import type { Tool } from '../src/registry/define-tool.js';
import { billing, billingPlans, ledger, markets } from './account.js';
import { requestRecord, usage } from './history.js';
import { CALENDAR_TOOLS, serpCalendar } from './calendar.js';
import { compatSearch } from './compat-search.js';
import { FLIGHT_ENGINES, FLIGHT_TOOLS } from './flights.js';
import { COMPARE_TOOLS } from './compare.js';
import { OFFICIAL_TOOLS } from './official.js';
import { OTA_TOOLS } from './ota.js';
import { RENTAL_ENGINES, RENTAL_TOOLS } from './rentals.js';
import { WEBDATA_TOOLS } from './webdata.js';
import { HOTEL_ENGINES, HOTEL_TOOLS } from './hotels.js';
import { createJob, getJob } from './jobs.js';
import { sourcesStatus } from './sources-status.js';

/** Engines of GET /api/v1/search: each is the /v1/serp/<engine> operation of that name. */
const ENGINES: Record<string, Tool> = { ...RENTAL_ENGINES, ...HOTEL_ENGINES, metasearch_hotels_calendar: serpCalendar, ...FLIGHT_ENGINES };

/** The registry: every operation of the service, and nothing else defines one. */
export const TOOLS: Tool[] = [
  billingPlans,
  billing,
  ledger,
  markets,
  usage,
  requestRecord,
  sourcesStatus,
  ...HOTEL_TOOLS,
  ...CALENDAR_TOOLS,
  createJob,
  getJob,
  ...FLIGHT_TOOLS,
  ...OTA_TOOLS,
  ...RENTAL_TOOLS,
  ...OFFICIAL_TOOLS,
  ...COMPARE_TOOLS,
  ...WEBDATA_TOOLS,
  compatSearch(ENGINES, 'rentaltwo'),
];

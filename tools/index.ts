import type { Tool } from '../src/core/define-tool.js';
import { asCompatRoute } from '../src/core/compat/engine.js';
import { billing, billingPlans, ledger, markets } from './account.js';
import { requestRecord, usage } from './history.js';
import { CALENDAR_TOOLS } from './calendar.js';
import { ALIAS_ENGINES } from './compat-engines.js';
import { COMPAT_TOOLS } from './compat-search.js';
import { FLIGHT_TOOLS } from './flights.js';
import { COMPARE_TOOLS } from './compare.js';
import { OFFICIAL_TOOLS } from './official.js';
import { OTA_TOOLS } from './ota.js';
import { RENTAL_TOOLS } from './rentals.js';
import { WEBDATA_TOOLS } from './webdata.js';
import { HOTEL_TOOLS } from './hotels.js';
import { createJob, getJob, getJobArtifact } from './jobs.js';
import { sourcesStatus } from './sources-status.js';
import { WATCH_TOOLS } from './watches.js';
import { DIGEST_TOOLS } from './watch-digests.js';
import { WATCH_CHECK_TOOLS } from './watch-checks.js';
import { COMPSET_TOOLS } from './compsets.js';
import { PARITY_RANGE_TOOLS } from './parity-range.js';
import { HISTORY_TOOLS } from './rate-history.js';

/** An operation at POST /v1/serp/<alias> answers as every compatible search does (envelope links, archive). */
function inCompatFamily(tool: Tool): Tool {
  const engine = ALIAS_ENGINES.find((e) => e.tool === tool && tool.path === `/v1/serp/${e.name}`);
  return engine ? asCompatRoute(tool, engine) : tool;
}

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
  ...HISTORY_TOOLS,
  createJob,
  getJob,
  getJobArtifact,
  ...FLIGHT_TOOLS,
  ...OTA_TOOLS,
  ...RENTAL_TOOLS,
  ...OFFICIAL_TOOLS,
  ...COMPARE_TOOLS,
  ...WATCH_TOOLS,
  ...WATCH_CHECK_TOOLS,
  ...DIGEST_TOOLS,
  ...COMPSET_TOOLS,
  ...PARITY_RANGE_TOOLS,
  ...WEBDATA_TOOLS,
  ...COMPAT_TOOLS,
].map(inCompatFamily);

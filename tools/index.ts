import type { Tool } from '../src/registry/define-tool.js';
import { billing, billingPlans, ledger, markets } from './account.js';
import { requestRecord, usage } from './history.js';
import { CALENDAR_TOOLS } from './calendar.js';
import { createJob, getJob } from './jobs.js';

/** The registry: every operation of the service, and nothing else defines one. */
export const TOOLS: Tool[] = [billingPlans, billing, ledger, markets, usage, requestRecord, ...CALENDAR_TOOLS, createJob, getJob];

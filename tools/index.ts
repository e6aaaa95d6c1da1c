import type { Tool } from '../src/registry/define-tool.js';
import { billing, billingPlans, markets } from './account.js';

/** The registry: every operation of the service, and nothing else defines one. */
export const TOOLS: Tool[] = [billingPlans, billing, markets];

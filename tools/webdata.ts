import type { Tool } from '../src/core/define-tool.js';
import { APPS_TOOLS } from './apps.js';
import { CAREERS_TOOLS } from './careers.js';
import { JOB_SEARCH_TOOLS } from './job-search.js';
import { NETWORK_TOOLS } from './network.js';
import { RETAIL_TOOLS } from './retail.js';
import { TRENDS_TOOLS } from './trends.js';
import { VIDEO_TOOLS } from './video.js';

/** Every web-data operation (none is an MCP tool). */
export const WEBDATA_TOOLS: Tool[] = [...NETWORK_TOOLS, ...CAREERS_TOOLS, ...VIDEO_TOOLS, ...APPS_TOOLS, ...RETAIL_TOOLS, ...TRENDS_TOOLS, ...JOB_SEARCH_TOOLS];

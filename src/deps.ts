import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Sql } from './db/client.js';
import type { Credits } from './platform/credits.js';
import type { Tool } from './registry/define-tool.js';

/** Everything a handler may use, built once by main and passed down; no module reads globals. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  log: Logger;
  credits: Credits;
  tools: Tool[];
  /** Per-service extras added by later layers (upstream client, queue). */
  services: Record<string, unknown>;
}

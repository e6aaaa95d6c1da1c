import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Sql } from './db/client.js';
import type { CalendarService } from './jobs/calendar-service.js';
import type { Credits } from './platform/credits.js';
import { DependencyDown } from './platform/errors.js';
import type { Tool } from './registry/define-tool.js';
import type { UpstreamClient } from './upstream/client.js';
import type { SafeFetcher } from './upstream/safe-fetch.js';
import type { JobsBrowser } from './sources/jobsearch/browser.js';

export interface Services {
  boss?: PgBoss;
  upstream?: UpstreamClient;
  safeFetch?: SafeFetcher;
  calendar?: CalendarService;
  /** Wakes this process's batch workers after a submission (absent when none run here). */
  wakeWorkers?: () => void;
  /** The rendered job-card search's browser, launched on first use. */
  jobsBrowser?: JobsBrowser;
}

/** Everything a handler may use, built once by main and passed down; no module reads globals. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  log: Logger;
  credits: Credits;
  tools: Tool[];
  services: Services;
}

/** A service the handler needs; its absence is a dependency fault (503), never a 500. */
export function need<K extends keyof Services>(deps: AppDeps, name: K): NonNullable<Services[K]> {
  const s = deps.services[name];
  if (!s) throw new DependencyDown(`${name} unavailable`);
  return s as NonNullable<Services[K]>;
}

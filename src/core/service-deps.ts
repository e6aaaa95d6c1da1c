import type { PlatformPath } from '../platform/fast-path.js';
import type { ToolServices } from './define-tool.js';
import type { ResultCache } from './result-cache.js';

/**
 * What the doors and workers run on: the services the handlers use and the per-call platform work.
 * Built once per process by the one builder (app/service.ts buildDeps) for every door: the HTTP
 * API, the worker, the stdio server, the CLI and the tests' service.
 */
export interface ServiceDeps extends ToolServices {
  /** Key cache, rate-limit slots and call outcomes: the per-call platform work, group-committed. */
  platform: PlatformPath;
  /** The shared result cache, with its store and purge (the hourly job, the tests). */
  results: ResultCache;
}

import type { PlatformPath } from '../platform/fast-path.js';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Sql } from '../db/client.js';
import type { CalendarService } from '../domain/calendar-service.js';
import type { Credits } from '../platform/credits.js';
import { DependencyDown } from '../domain/errors.js';
import type { Ops } from '../ops/ops.js';
import type { Tool } from '../core/define-tool.js';
import type { UpstreamClient, UpstreamRequest } from '../upstream/client.js';
import type { SafeFetchInit, SafeFetcher } from '../upstream/safe-fetch.js';
import type { UpstreamSession } from '../upstream/session.js';
import type { JobsBrowser } from '../sources/jobsearch/browser.js';

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
  /** Key cache, rate-limit slots and call outcomes: the per-call platform work, group-committed. */
  platform: PlatformPath;
  tools: Tool[];
  services: Services;
  /** The logical operation these dependencies serve (set by scopeDeps); absent outside any call. */
  session?: UpstreamSession;
  /** Metrics and upstream-outcome recording of this process. */
  ops: Ops;
}

/** A service the handler needs; its absence is a dependency fault (503), never a 500. */
export function need<K extends keyof Services>(deps: AppDeps, name: K): NonNullable<Services[K]> {
  const s = deps.services[name];
  if (!s) throw new DependencyDown(`${name} unavailable`);
  return s as NonNullable<Services[K]>;
}

/**
 * The same dependencies, with every upstream and website request of this scope ended by `signal`
 * (e.g. one source of a comparison once the comparison's deadline has passed).
 */
export function withSignal(deps: AppDeps, signal: AbortSignal): AppDeps {
  return scopeDeps(deps, { signal });
}

/**
 * The same dependencies for one scope of work: its upstream requests are also ended by `signal`
 * (an enclosing scope's signal still applies) and belong to `session` (one logical operation:
 * one API call, one batch item), whose cookies no other operation sees.
 */
export function scopeDeps(deps: AppDeps, scope: { signal?: AbortSignal; session?: UpstreamSession }): AppDeps {
  const { upstream, safeFetch } = deps.services;
  const { signal, session } = scope;
  const both = (own?: AbortSignal) => (own && signal ? AbortSignal.any([own, signal]) : (own ?? signal));
  const scoped: Services = { ...deps.services };
  if (upstream) scoped.upstream = forwarding(upstream, 'fetch', (fetch) => (req: UpstreamRequest) => fetch({ ...req, signal: both(req.signal), session: req.session ?? session }));
  if (safeFetch && signal) scoped.safeFetch = forwarding(safeFetch, 'fetch', (fetch) => (target: string, init: SafeFetchInit = {}) => fetch(target, { ...init, signal: both(init.signal) }));
  return { ...deps, services: scoped, session: session ?? deps.session };
}

/** `target` with one method replaced; everything else (private state included) still answered by `target`. */
export function forwarding<T extends object, K extends keyof T>(target: T, key: K, wrap: (original: T[K]) => T[K]): T {
  const original = (target[key] as (...args: unknown[]) => unknown).bind(target) as T[K];
  const replaced = wrap(original);
  return new Proxy(target, {
    get(t, prop) {
      if (prop === key) return replaced;
      const value = Reflect.get(t, prop, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

import { observed, type OutcomeSink } from '../ops/outcomes.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './client.js';
import type { SafeFetcher, SafeFetchInit, SafeFetchResponse } from './safe-fetch.js';
import { IdentifierKeeper, type Identifiers } from './identifiers.js';
import type { UpstreamSession } from './session.js';

/*
 * The upstream client and the website fetcher as sources see them: one per process, handed to
 * each scope of work (one API call, one batch item, one compared source) as a small object that
 * adds the scope's signal and session to every request. Nothing is shared between scopes but the
 * connection pools: the cookies of one operation never reach another.
 */

/** What a scope adds to every request made through it. */
export interface UpstreamScope {
  /** Ends the scope's requests and their retries early (the caller hung up, a deadline passed); an enclosing scope's signal still applies. */
  signal?: AbortSignal;
  /** The logical operation the requests belong to (its cookies, whether raw replies may be kept); an enclosing scope's otherwise. */
  session?: UpstreamSession;
}

export type SendUpstream = (req: UpstreamRequest) => Promise<UpstreamResponse>;

/** The upstream client within one scope. */
export interface Upstream {
  fetch(req: UpstreamRequest): Promise<UpstreamResponse>;
  /** The same upstream with `scope` added: a narrower scope inside this one. */
  scoped(scope: UpstreamScope): Upstream;
  /** The operation this scope's requests belong to; null outside any (each request then has a session of its own). */
  readonly session: UpstreamSession | null;
  /** Whether a refused plain reply of this request may be retried through the browser path (UpstreamClient.browserFallback). */
  browserFallback(req: Pick<UpstreamRequest, 'source' | 'baseUrl'>): Promise<boolean>;
  /** The build-time identifiers (persisted-query hashes) every process sends, and their repair when one moved. */
  readonly identifiers: Identifiers;
}

export type BrowserFallback = Upstream['browserFallback'];
const NO_BROWSER: BrowserFallback = () => Promise.resolve(false);

/** The SSRF-safe website fetcher within one scope (its requests share no cookies: nothing to carry but the signal). */
export interface WebsiteFetch {
  fetch(target: string, init?: SafeFetchInit): Promise<SafeFetchResponse>;
  scoped(scope: Pick<UpstreamScope, 'signal'>): WebsiteFetch;
}

/** Requests sent through `send`, each with the scope's signal and session added (a request's own session wins). */
export function upstreamScope(
  send: SendUpstream,
  scope: UpstreamScope = {},
  browserFallback: BrowserFallback = NO_BROWSER,
  identifiers: Identifiers = new IdentifierKeeper(null),
): Upstream {
  return {
    session: scope.session ?? null,
    fetch: (req) => send({ ...req, signal: either(req.signal, scope.signal), session: req.session ?? scope.session }),
    scoped: (inner) =>
      upstreamScope(send, { signal: either(scope.signal, inner.signal), session: inner.session ?? scope.session }, browserFallback, identifiers),
    browserFallback,
    identifiers,
  };
}

/**
 * The process's upstream: every request through `client`, its outcome recorded by `outcomes` (in
 * the caller's source scope when there is one, see ops/outcomes.ts).
 */
export function observedUpstream(client: Pick<UpstreamClient, 'fetch' | 'browserFallback'>, outcomes: OutcomeSink, identifiers?: Identifiers): Upstream {
  return upstreamScope(
    (req) => observed(outcomes, req.source, () => client.fetch(req)),
    {},
    (req) => client.browserFallback(req),
    identifiers,
  );
}

/** Website fetches through `fetcher`, each also ended by `signal`. */
export function websiteFetch(fetcher: Pick<SafeFetcher, 'fetch'>, signal?: AbortSignal): WebsiteFetch {
  return {
    fetch: (target, init = {}) => fetcher.fetch(target, signal ? { ...init, signal: either(init.signal, signal) } : init),
    scoped: (scope) => websiteFetch(fetcher, either(signal, scope.signal)),
  };
}

/** A signal that fires when either does; one of them when the other is absent. */
function either(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  return a && b ? AbortSignal.any([a, b]) : (a ?? b);
}

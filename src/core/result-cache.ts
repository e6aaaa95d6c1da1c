import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { CacheSettings } from '../config/cache-settings.js';
import { ConfigError } from '../config/config.js';
import type { Metrics, ResultCacheOutcome } from '../ops/metrics.js';
import { upstreamTroubleInScope } from '../ops/outcomes.js';
import type { CachedAnswer, ResultCacheStore } from '../platform/result-cache.js';
import type { CacheCallOptions, CacheOutcome, CallCache, ResultCacheService, Tool } from './define-tool.js';
import { jsonSchema } from './json-schema.js';

/*
 * When a call is answered from the shared result cache, and how identical calls share one fetch.
 * A cached operation (its descriptor's `cache`) is keyed by its name, its output format and its
 * normalised input (defaults applied by its schema, key order and null/absent not mattering, the
 * caller never part of it: the answers are public web data). A fresh stored answer is served free;
 * identical calls in flight in this process wait for the first one's fetch (a map of promises), and
 * across processes for the claim its process holds on the key (a pending row, woken by NOTIFY).
 * Only the call that fetched pays. Failures, answers judged empty, answers fetched while an upstream
 * request of the call failed (blocked, timed out: maybe partial) and zero-retention calls are never
 * stored; a zero-retention call still reads the cache and shares fetches, it never starts one for others.
 */

/** The input field of every cached operation (spread into its input schema): false fetches live. */
export const CACHE_FIELD = { cache: z.boolean().optional().describe('false: live') };

/** Fields that never change an answer, so never part of its key. */
const NOT_IN_KEY = new Set(['cache', 'no_cache', 'zero_retention', 'async', 'engine']);

/** How long a fetch holds its claim: past it another process fetches too (the first one crashed or hangs). */
const CLAIM_S = 120;
/** A waiting call looks again at least this often (a notification lost to a reconnect costs no more). */
const RECHECK_MS = 1_000;

/** JSON with object keys sorted and null fields dropped: one text per input, however it was sent. */
export function cacheKeyText(value: unknown, top = true): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : cacheKeyText(v, false))).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && v !== null && !(top && NOT_IN_KEY.has(k)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${cacheKeyText(v, false)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const formats = new WeakMap<Tool, string>();
/** A digest of the operation's output schema: an answer stored before its format changed is not served after. */
function formatOf(tool: Tool): string {
  let f = formats.get(tool);
  if (!f) {
    f = createHash('sha256')
      .update(JSON.stringify(jsonSchema(tool.output, 'output')))
      .digest('hex')
      .slice(0, 16);
    formats.set(tool, f);
  }
  return f;
}

/** The cache key of a call of `tool` with its valid `input`. */
export function cacheKey(tool: Tool, input: unknown): string {
  return createHash('sha256')
    .update(`${tool.name}\n${formatOf(tool)}\n${cacheKeyText(input)}`)
    .digest('hex');
}

/** The answer a hit hands out: the stored one, with this call's request id where the fetching call's stood. */
function answerFor(stored: Pick<CachedAnswer, 'answer' | 'requestId'>, requestId: string): unknown {
  const output = JSON.parse(stored.answer) as unknown;
  const meta = (output as { search_metadata?: { id?: unknown } } | null)?.search_metadata;
  if (meta && typeof meta === 'object' && meta.id === stored.requestId) meta.id = requestId;
  return output;
}

/**
 * A hit as the REST door hands it out: `cached: true` and when it was fetched (`observed_at`, an
 * answer's own kept) in its metadata: `search_metadata` where it has one, else `meta`.
 */
export function markedAnswer(output: unknown, outcome: CacheOutcome | null): unknown {
  if (!outcome?.hit || !isRecord(output)) return output;
  const observed_at = outcome.observedAt.toISOString();
  const key = isRecord(output.search_metadata) ? 'search_metadata' : 'meta';
  const meta = isRecord(output[key]) ? output[key] : {};
  return { ...output, [key]: { ...meta, cached: true, observed_at: meta.observed_at ?? observed_at } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one fetch in flight comes to, for the calls that wait on it (`output`: the fetching call's own object). */
type Flight = { ok: true; stored: CachedAnswer; fetched: boolean; output?: unknown } | { ok: false; error: unknown; shared: boolean };

/** Marks an error of the fetching call's own (no credits): the calls that waited on it go again. */
const NOT_SHARED = Symbol('not shared');

/** A fetched answer: the object, its JSON as stored, and whether it may be kept for others. */
interface Fetched {
  output: unknown;
  stored: CachedAnswer;
  keep: boolean;
}

/** The process's side of the shared result cache; one per process, built by the dependency builder. */
export class ResultCache implements ResultCacheService {
  private readonly inflight = new Map<string, Promise<Flight>>();
  private writtenSinceEvict = 0;
  private evicting: Promise<unknown> | null = null;

  constructor(
    readonly store: ResultCacheStore,
    private readonly settings: CacheSettings,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    tools: Tool[],
  ) {
    const unknown = Object.keys(settings.operations).filter((name) => !tools.some((t) => t.name === name && t.cache));
    if (unknown.length) throw new ConfigError(`invalid configuration:\n  RESULT_CACHE_OPERATION_S: not a cached operation: ${unknown.join(', ')}`);
  }

  /** Listens for answers other processes write (calls waiting on them wake at once). */
  start(): void {
    if (this.settings.enabled) void this.store.listen();
  }

  /** Seconds an answer of `tool` is served; 0: not cached. */
  freshness(tool: Tool): number {
    if (!this.settings.enabled || !tool.cache) return 0;
    return this.settings.operations[tool.name] ?? this.settings.freshness[tool.cache];
  }

  /** The cache as one call uses it. */
  forCall(call: CacheCallOptions): CallCache {
    return new CallCacheRun(this, call);
  }

  /** Deletes expired entries and keeps the rest within the size cap (the hourly job). */
  async purge(): Promise<number> {
    return (await this.store.purgeExpired()) + (await this.store.evict(this.settings.maxBytes));
  }

  count(tool: Tool, outcome: ResultCacheOutcome): void {
    this.metrics.resultCache.inc({ operation: tool.name, outcome });
  }

  /** The fetch of `key` this process has in flight, if any. */
  flight(key: string): Promise<Flight> | undefined {
    return this.inflight.get(key);
  }

  /**
   * Fetches `key` for every identical call of this process: registered before its first await, so a
   * call arriving meanwhile waits on it. Across processes the claim decides who fetches; the others
   * wait for its answer.
   */
  lead(key: string, tool: Tool, fresh: number, fetch: () => Promise<Fetched>, signal: AbortSignal | undefined): Promise<Flight> {
    const flight = this.fetchOnce(key, tool, fresh, fetch, signal).finally(() => this.inflight.delete(key));
    this.inflight.set(key, flight);
    return flight;
  }

  private async fetchOnce(key: string, tool: Tool, fresh: number, fetch: () => Promise<Fetched>, signal: AbortSignal | undefined): Promise<Flight> {
    const token = randomUUID();
    const deadline = Date.now() + (CLAIM_S + 5) * 1000;
    let claimed = false;
    // while another process fetches the same answer, wait for it; past its claim, fetch
    while (Date.now() < deadline) {
      const claim = await this.store.claim(key, tool.name, token, fresh, CLAIM_S).catch((err) => {
        this.log.warn({ err, operation: tool.name }, 'result cache: claim failed; fetching without it');
        return null;
      });
      if (!claim) break;
      if (claim.claimed) {
        claimed = true;
        break;
      }
      if (claim.ready) return { ok: true, stored: claim.ready, fetched: false };
      await this.store.waitFor(key, claim.until ? Math.min(RECHECK_MS, claim.until.getTime() - Date.now()) : 0, signal);
      if (signal?.aborted) return { ok: false, error: signal.reason, shared: false };
    }
    let fetched: Fetched;
    try {
      fetched = await fetch();
    } catch (err) {
      if (claimed) await this.store.release(key, token).catch(() => undefined);
      return { ok: false, error: err, shared: !signal?.aborted && (err as { [NOT_SHARED]?: boolean } | null)?.[NOT_SHARED] !== true };
    }
    const kept = fetched.keep && (await this.keep(key, tool, fetched.stored, fresh));
    if (!kept && claimed) await this.store.release(key, token).catch(() => undefined);
    return { ok: true, stored: fetched.stored, fetched: true, output: fetched.output };
  }

  /** Stores a fetched answer; false when it is not (too big, or the store failed: that costs the cache, never the call). */
  async keep(key: string, tool: Tool, stored: CachedAnswer, fresh: number): Promise<boolean> {
    const bytes = Buffer.byteLength(stored.answer);
    // one answer may not crowd out the rest
    if (bytes > this.settings.maxBytes / 10) return false;
    try {
      await this.store.fill(key, tool.name, stored, fresh);
    } catch (err) {
      this.log.warn({ err, operation: tool.name }, 'result cache: answer not stored');
      return false;
    }
    this.writtenSinceEvict += bytes;
    // the cap is checked after each tenth of it this process writes, and hourly (purge)
    if (this.writtenSinceEvict > this.settings.maxBytes / 10 && !this.evicting) {
      this.writtenSinceEvict = 0;
      this.evicting = this.store
        .evict(this.settings.maxBytes)
        .catch((err) => this.log.warn({ err }, 'result cache: eviction failed'))
        .finally(() => (this.evicting = null));
    }
    return true;
  }

  async close(): Promise<void> {
    await this.evicting;
    await this.store.close();
  }
}

type Answered<O> = { output: O; facts: Record<string, unknown> | null };

/** The result cache as one call uses it (ToolContext.cache). */
class CallCacheRun implements CallCache {
  outcome: CacheOutcome | null = null;
  private reserved = false;

  constructor(
    private readonly cache: ResultCache,
    private readonly call: CacheCallOptions,
  ) {}

  async run<O>(
    tool: Tool<unknown, O>,
    input: unknown,
    fetch: () => Promise<O>,
    opts: { bypass?: boolean; facts?: () => Record<string, unknown> } = {},
  ): Promise<Answered<O>> {
    const fresh = this.cache.freshness(tool);
    if (!fresh) return { output: await this.fetchForThisCall(fetch), facts: null };
    const { zeroRetention, signal } = this.call;
    const key = cacheKey(tool, input);
    const fetchAndJudge = (share: boolean) => this.fetchAndJudge(tool, input, fetch, opts.facts, share);
    // asked live: neither read nor kept (its answer echoes what it was asked with, cache: false among it)
    if (opts.bypass) {
      this.cache.count(tool, 'bypass');
      const fetched = await fetchAndJudge(false);
      return this.own(fetched.output as O, fetched.stored);
    }
    for (let attempt = 0; ; attempt++) {
      const inFlight = this.cache.flight(key);
      if (inFlight) {
        const flight = await this.untilAborted(inFlight);
        if (flight.ok) return this.hit(tool, 'coalesced', flight.stored);
        // a fetch that ended for its own caller's reason (hung up, no credits) is not this call's answer: go again
        if (flight.shared || attempt >= 3) throw flight.error;
        continue;
      }
      const stored = await this.cache.store.read(key, fresh).catch(() => null);
      if (stored) return this.hit(tool, 'hit', stored);
      // another call of this process may have started the fetch while this one read
      if (this.cache.flight(key)) continue;
      // nothing of a zero-retention call is kept, not even a claim: when it fetches, it fetches for itself
      if (zeroRetention) {
        this.cache.count(tool, 'miss');
        const fetched = await fetchAndJudge(false);
        return this.own(fetched.output as O, fetched.stored);
      }
      const flight = await this.untilAborted(this.cache.lead(key, tool, fresh, () => fetchAndJudge(true), signal));
      if (!flight.ok) throw flight.error;
      if (!flight.fetched) return this.hit(tool, 'coalesced', flight.stored);
      this.cache.count(tool, 'miss');
      return this.own(flight.output as O, flight.stored);
    }
  }

  /** An answer this call did not fetch: free, with this call's request id. */
  private hit<O>(tool: Tool, outcome: ResultCacheOutcome, stored: CachedAnswer): Answered<O> {
    this.cache.count(tool, outcome);
    this.outcome = { hit: true, observedAt: stored.observedAt };
    return { output: answerFor(stored, this.call.requestId) as O, facts: stored.facts };
  }

  /** The answer this call fetched. */
  private own<O>(output: O, stored: CachedAnswer): Answered<O> {
    this.outcome = { hit: false, observedAt: stored.observedAt };
    return { output, facts: stored.facts };
  }

  /** Waits for a shared fetch, unless this call's client hangs up first. */
  private untilAborted(flight: Promise<Flight>): Promise<Flight> {
    const { signal } = this.call;
    if (!signal) return flight;
    // the DOM typings give an abort reason as any: it is whatever the aborting side passed
    if (signal.aborted) return Promise.resolve({ ok: false, error: signal.reason as unknown, shared: true });
    return new Promise((resolve) => {
      const onAbort = () => resolve({ ok: false, error: signal.reason as unknown, shared: true });
      signal.addEventListener('abort', onAbort, { once: true });
      void flight.then((f) => {
        signal.removeEventListener('abort', onAbort);
        resolve(f);
      });
    });
  }

  /** This call fetches: its credits are reserved first (once). */
  private async fetchForThisCall<O>(fetch: () => Promise<O>): Promise<O> {
    if (!this.reserved) {
      this.reserved = true;
      try {
        await this.call.beforeFetch?.();
      } catch (err) {
        throw err !== null && typeof err === 'object' ? Object.assign(err, { [NOT_SHARED]: true }) : err;
      }
    }
    return fetch();
  }

  /**
   * Fetches, and judges whether the answer may be kept: not empty (it would be free), not partial
   * by its descriptor, no upstream request of the call in trouble (it may be partial). `share`: the answer goes to the
   * identical calls waiting on it (as JSON, so that none shares an object with another) and maybe to
   * the cache; otherwise it is this call's alone.
   */
  private async fetchAndJudge<O>(
    tool: Tool<unknown, O>,
    input: unknown,
    fetch: () => Promise<O>,
    facts: (() => Record<string, unknown>) | undefined,
    share: boolean,
  ): Promise<Fetched> {
    const observedAt = new Date();
    const output = await this.fetchForThisCall(fetch);
    const keep = share && !upstreamTroubleInScope() && tool.credits.actual(input, output) > 0 && !tool.partial(output);
    const answer = share ? JSON.stringify(output) : '';
    return { output, stored: { answer, facts: facts?.() ?? null, requestId: this.call.requestId, observedAt }, keep };
  }
}

/** For calls outside the kernel's path (the operator's source checks): every call fetched live, nothing cached. */
export const LIVE: CallCache = {
  outcome: null,
  async run(_tool, _input, fetch) {
    return { output: await fetch(), facts: null };
  },
};

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the browser path reports (upstream/browser-fetch.ts takes any object of this shape). */
export interface BrowserObserver {
  call(source: string, outcome: string, seconds: number): void;
  blocked(source: string, reason: string): void;
}

/** Contexts in use, calls waiting, contexts kept warm and calls a kept one served, as the browser path counts them. */
export interface BrowserPoolGauge {
  stats(): { busy: number; waiting: number; warm: number; reused: number };
}

/** The upstream browser path on /metrics: calls, their time and failures per source, refused page requests. */
export interface BrowserMetrics {
  calls: Counter<'source' | 'outcome'>;
  seconds: Histogram<'source' | 'outcome'>;
  blocked: Counter<'source' | 'reason'>;
}

export function createBrowserMetrics(registry: Registry, prefix: string): BrowserMetrics {
  const registers = [registry];
  return {
    calls: new Counter({
      name: `${prefix}browser_calls_total`,
      help: 'Upstream browser-path calls by source alias and outcome (ok, blocked, timeout, busy, unavailable, failed)',
      labelNames: ['source', 'outcome'],
      registers,
    }),
    seconds: new Histogram({
      name: `${prefix}browser_call_duration_seconds`,
      help: 'Time of one browser-path call (waiting for a context included), by source alias and outcome',
      labelNames: ['source', 'outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    blocked: new Counter({
      name: `${prefix}browser_blocked_requests_total`,
      help: 'Requests of a browser page refused by the egress rules, by source alias and reason (host, private_address, scheme)',
      labelNames: ['source', 'reason'],
      registers,
    }),
  };
}

export function browserObserver(metrics: BrowserMetrics): BrowserObserver {
  return {
    call(source, outcome, seconds) {
      metrics.calls.inc({ source, outcome });
      metrics.seconds.observe({ source, outcome }, seconds);
    },
    blocked(source, reason) {
      metrics.blocked.inc({ source, reason });
    },
  };
}

/** Contexts in use and calls waiting, read from the pool at scrape time. */
export function addBrowserGauges(registry: Registry, prefix: string, browser: BrowserPoolGauge): void {
  new Gauge({
    name: `${prefix}browser_contexts`,
    help: 'Browser-path contexts in use (busy), calls waiting for one (waiting) and contexts kept idle for the next call (warm)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = browser.stats();
      this.set({ state: 'busy' }, s.busy);
      this.set({ state: 'waiting' }, s.waiting);
      this.set({ state: 'warm' }, s.warm);
    },
  });
  new Gauge({
    name: `${prefix}browser_context_reuses`,
    help: 'Browser-path calls served by a context kept warm from an earlier call (cleared between calls), since the process started',
    registers: [registry],
    collect() {
      this.set(browser.stats().reused);
    },
  });
}

import type { Sql } from '../db/client.js';
import { Limited } from '../domain/errors.js';

/*
 * The owner of rate_buckets (through the database functions rate_limit_take and rate_limit_lease,
 * migrations 001 and 011): a sliding 60-second window per key, kept in PostgreSQL so every API
 * process agrees.
 */

/** Takes one slot of the key's window, or refuses (429). */
export async function takeRateLimit(sql: Sql, keyId: string, limit: number): Promise<void> {
  const [row] = await sql<{ ok: boolean }[]>`SELECT rate_limit_take(${keyId}, ${limit}) AS ok`;
  if (!row.ok) throw new Limited(`rate limit ${limit}/min exceeded`, true);
}

/** A lease ends this long before its second does by the database's clock (the answer's travel time is on top). */
const LEASE_MARGIN_MS = 5;
/** A process leases ahead at most this share of a key's per-minute limit, and at most MAX_AHEAD slots. */
const AHEAD_SHARE = 0.01;
const MAX_AHEAD = 1_000;
/** Demand is the calls of the last second; a bucket idle this long is forgotten. */
const DEMAND_WINDOW_MS = 1_000;
const IDLE_MS = 10_000;

interface Lease {
  slots: number;
  /** The second (database clock) the slots are counted in. */
  sec: number;
  /** performance.now() at which the lease ends, before its second does. */
  endsAt: number;
}

interface LeaseRow {
  granted: number[];
  lease_sec: number;
  ms_left: number;
}

interface Waiter {
  resolve(admitted: boolean): void;
  reject(err: unknown): void;
}

interface Bucket {
  name: string;
  limit: number;
  lease: Lease | null;
  waiting: Waiter[];
  /** Slots of an ended lease not handed out, to give back to their second. */
  unused: { sec: number; n: number } | null;
  windowStart: number;
  calls: number;
  lastWindowCalls: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The per-key window of `rate_limit_take`, without a database round trip per call: this process
 * leases slots of a busy key in one statement (for the calls waiting, plus what it expects to need
 * before the second ends, at most 1 % of the key's limit) and hands them out itself until the
 * second they are counted in ends; slots it did not use go back to that second. Leased slots count
 * as taken for every process, so all of them together never admit more than the limit; a process
 * can be refused while another holds unused slots, by at most 1 % of the limit, for under a second.
 * Keys whose limit is under 100 a minute lease nothing ahead: each slot is taken as its call asks.
 * Concurrent calls' requests go together in one statement.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly dirty = new Set<Bucket>();
  private flushing = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly sql: Sql) {
    this.sweeper = setInterval(() => this.forgetIdle(), IDLE_MS).unref();
  }

  /** True when the call is admitted: synchronously from this process's lease when it has one. */
  take(name: string, limit: number): boolean | Promise<boolean> {
    const now = performance.now();
    const b = this.bucket(name, limit, now);
    if (b.waiting.length === 0 && this.fromLease(b, now)) return true;
    return new Promise<boolean>((resolve, reject) => {
      b.waiting.push({ resolve, reject });
      this.dirty.add(b);
      if (!this.flushing) void this.flush();
    });
  }

  /** Gives the unused slots back and stops; calls made afterwards still work, one statement each. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const b of this.buckets.values()) {
      if (b.timer) clearTimeout(b.timer);
      b.timer = null;
      this.retire(b);
    }
    if (!this.flushing) await this.flush().catch(() => undefined);
  }

  private bucket(name: string, limit: number, now: number): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = { name, limit, lease: null, waiting: [], unused: null, windowStart: now, calls: 0, lastWindowCalls: 0, timer: null };
      this.buckets.set(name, b);
    }
    b.limit = limit;
    if (now - b.windowStart >= DEMAND_WINDOW_MS) {
      b.lastWindowCalls = now - b.windowStart < 2 * DEMAND_WINDOW_MS ? b.calls : 0;
      b.calls = 0;
      b.windowStart = now;
    }
    b.calls++;
    return b;
  }

  private fromLease(b: Bucket, now: number): boolean {
    const lease = b.lease;
    if (!lease) return false;
    if (now >= lease.endsAt) {
      this.retire(b);
      return false;
    }
    if (lease.slots === 0) return false;
    lease.slots--;
    return true;
  }

  /** Ends the bucket's lease; what it did not hand out waits to be given back. */
  private retire(b: Bucket): void {
    const lease = b.lease;
    b.lease = null;
    if (!lease || lease.slots === 0) return;
    // one pending give-back per bucket: an older one still unsent stays counted (refuses early, never admits more)
    b.unused = { sec: lease.sec, n: lease.slots };
    this.dirty.add(b);
  }

  /** Slots to lease beyond the calls waiting: the calls of the last second, within the key's share. */
  private ahead(b: Bucket): number {
    const cap = Math.min(MAX_AHEAD, Math.floor(b.limit * AHEAD_SHARE));
    return Math.min(cap, Math.max(b.calls, b.lastWindowCalls));
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.dirty.size) {
        const batch = [...this.dirty].filter((b) => b.waiting.length || b.unused);
        this.dirty.clear();
        if (!batch.length) break;
        const asked = batch.map((b) => b.waiting.splice(0));
        const giveBack = batch.map((b) => b.unused);
        batch.forEach((b) => (b.unused = null));
        const sentAt = performance.now();
        let row: LeaseRow;
        try {
          const requests = batch.map((b, i) => ({
            key: b.name,
            limit: b.limit,
            want: asked[i].length ? asked[i].length + this.ahead(b) : 0,
            return_sec: giveBack[i]?.sec ?? 0,
            return_n: giveBack[i]?.n ?? 0,
          }));
          [row] = await this.sql<LeaseRow[]>`SELECT granted, lease_sec, ms_left FROM rate_limit_lease(${JSON.stringify(requests)}::json)`;
        } catch (err) {
          batch.forEach((b, i) => (b.unused ??= giveBack[i]));
          for (const waiting of asked) for (const w of waiting) w.reject(err);
          continue;
        }
        const endsAt = sentAt + row.ms_left - LEASE_MARGIN_MS;
        batch.forEach((b, i) => this.grant(b, asked[i], row.granted[i], row.lease_sec, endsAt));
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Admits the calls that asked, in order, from `granted`; the rest of it becomes the bucket's lease. */
  private grant(b: Bucket, asked: Waiter[], granted: number, sec: number, endsAt: number): void {
    asked.forEach((w, i) => w.resolve(i < granted));
    const left = granted - Math.min(granted, asked.length);
    if (left <= 0) return;
    this.retire(b);
    b.lease = { slots: left, sec, endsAt };
    const now = performance.now();
    // calls that came while the statement ran
    while (b.waiting.length && this.fromLease(b, now)) b.waiting.shift()!.resolve(true);
    if (b.waiting.length) this.dirty.add(b);
    if (b.lease) this.giveBackWhenDone(b, b.lease);
  }

  /** When the lease ends with slots left and no call came to end it, they go back at once. */
  private giveBackWhenDone(b: Bucket, lease: Lease): void {
    if (b.timer) clearTimeout(b.timer);
    b.timer = setTimeout(
      () => {
        b.timer = null;
        if (b.lease !== lease || lease.slots === 0) return;
        this.retire(b);
        if (!this.flushing) void this.flush().catch(() => undefined);
      },
      Math.max(0, lease.endsAt - performance.now()) + 1,
    ).unref();
  }

  private forgetIdle(): void {
    const now = performance.now();
    for (const [name, b] of this.buckets) {
      if (!b.lease && !b.unused && !b.waiting.length && !b.timer && now - b.windowStart > IDLE_MS) this.buckets.delete(name);
    }
  }
}

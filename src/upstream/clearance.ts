import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isPrimaryCookie, isWallCookie, wallOfVerdict, type WallId } from '../config/walls.js';
import { isScriptChallenge, type UpstreamBlocked } from './blocked.js';
import type { KeptCookie, WallClearance, WallClearanceStore } from '../platform/wall-clearances.js';
import type { CookieJar } from './cookie-jar.js';

/*
 * Clearance reuse: when the browser path clears a script challenge, the anonymous cookies the wall
 * names (config/walls.ts) are kept with the user agent that earned them, per source and egress, in
 * PostgreSQL (platform/wall-clearances.ts), so that plain requests of every process send them until a
 * reply is a challenge again. Then one browser visit renews them: single-flight in this process (one
 * promise per source) and across processes (a claim on the row, the others woken by NOTIFY), like the
 * result cache's claim. Nothing else of the visit is kept: no session, consent or account cookie.
 */

/** What the browser hands back after a cleared visit: the wall's cookies and the user agent they are bound to. */
export interface Harvest {
  wall: WallId;
  userAgent: string;
  cookies: KeptCookie[];
}

/** A browser visit that clears `wall` and hands the cookies of `walls` to `keep`. */
export interface HarvestRequest {
  wall: WallId;
  walls: readonly WallId[];
  keep(h: Harvest): void;
}

/** One plain request of a source through its kept clearance (UpstreamClient's paths for it). */
export interface ThroughClearance<R> {
  source: string;
  egress: string;
  /** The walls known in front of the source (their cookies are kept beside the challenging wall's). */
  walls: readonly WallId[];
  signal?: AbortSignal;
  plain(clearance: WallClearance | null): Promise<R>;
  browser(harvest?: HarvestRequest): Promise<R>;
  /** Whether the source may go to the browser now (its mode and egress rules). */
  mayBrowse(): Promise<boolean>;
}

export interface ClearanceSettings {
  /** The longest a clearance is used, whatever its cookies say (UPSTREAM_CLEARANCE_MAX_AGE_S). */
  maxAgeS: number;
  /** How long a call waits for another's visit before it makes its own (the browser call's bound, and some). */
  waitMs: number;
}

/** Events the keeper reports (the status and /metrics count them per source). */
export interface ClearanceEvents {
  event(source: string, name: 'reclear'): void;
}

/** How a re-clear ended for the caller: its own visit answered it, another's visit left a clearance, or neither (go alone). */
export type Reclear<R> = { response: R } | { clearance: WallClearance } | { none: true };

/** A call waiting for a re-clear looks again at least this often (a lost notification costs no more). */
const RECHECK_MS = 1_000;
/** A process re-reads a clearance it holds at least this often (other processes' renewals arrive by NOTIFY first). */
const CACHE_MS = 5_000;

export class ClearanceKeeper {
  readonly #cache = new Map<string, { clearance: WallClearance | null; readAt: number }>();
  readonly #flights = new Map<string, Promise<WallClearance | null>>();

  constructor(
    private readonly store: WallClearanceStore,
    private readonly settings: ClearanceSettings,
    private readonly log: Logger,
    private readonly events: ClearanceEvents | null = null,
  ) {
    store.watch((key) => this.#cache.delete(key));
  }

  /** The clearance plain requests of `source` through `egress` send now, if any. */
  async current(source: string, egress: string): Promise<WallClearance | null> {
    const key = `${source}|${egress}`;
    const cached = this.#cache.get(key);
    if (cached && Date.now() - cached.readAt < CACHE_MS && (!cached.clearance || cached.clearance.expiresAt.getTime() > Date.now())) return cached.clearance;
    const clearance = await this.store.read(source, egress).catch((err: unknown) => {
      this.log.warn({ source, err: (err as Error).message }, 'clearance: could not read the kept clearance');
      return null;
    });
    this.#cache.set(key, { clearance, readAt: Date.now() });
    return clearance;
  }

  /**
   * Plain with the clearance held, if any. A script challenge refuses it; one browser visit across
   * processes renews it (its caller gets the browser's answer, every other waiting call goes plain
   * with the new clearance); a clearance refused again at once, or none earned, sends the call to
   * the browser alone.
   */
  async through<R>(t: ThroughClearance<R>): Promise<R> {
    const held = await this.current(t.source, t.egress);
    try {
      return await t.plain(held);
    } catch (err) {
      if (!isScriptChallenge(err)) throw err;
      if (held) await this.refused(held);
      if (!(await t.mayBrowse())) throw err;
      const detail = (err as UpstreamBlocked).detail;
      this.log.warn({ source: t.source, detail, refused_generation: held?.generation ?? null }, 'script challenge, clearing it once through the browser');
      const wall = wallOfVerdict(detail);
      if (!wall) return t.browser();
      const walls = [...new Set([wall, ...t.walls])];
      const got = await this.reclear(t.source, t.egress, held?.generation ?? -1, (keep) => t.browser({ wall, walls, keep }), t.signal);
      if ('response' in got) return got.response;
      if ('clearance' in got) {
        try {
          return await t.plain(got.clearance);
        } catch (again) {
          if (!isScriptChallenge(again)) throw again;
          await this.refused(got.clearance);
        }
      }
      return t.browser();
    }
  }

  /** A reply was a challenge again on `c`: no process uses it after. */
  async refused(c: WallClearance): Promise<void> {
    this.#cache.delete(`${c.source}|${c.egress}`);
    await this.store.refuse(c.source, c.egress, c.generation).catch(() => undefined);
  }

  /**
   * Renews the clearance of `source` once for every caller: the first caller of this process leads;
   * across processes the claim decides who visits. The visiting call gets its own answer from the
   * browser (`visit`, which hands the wall's cookies to `keep`); the others get the clearance it left.
   * `seen`: the generation the caller found refused (-1: it held none).
   */
  async reclear<R>(source: string, egress: string, seen: number, visit: (keep: (h: Harvest) => void) => Promise<R>, signal?: AbortSignal): Promise<Reclear<R>> {
    const key = `${source}|${egress}`;
    const running = this.#flights.get(key);
    if (running) {
      const clearance = await running;
      return clearance ? { clearance } : { none: true };
    }
    let settle!: (c: WallClearance | null) => void;
    const flight = new Promise<WallClearance | null>((resolve) => (settle = resolve));
    this.#flights.set(key, flight);
    try {
      const got = await this.#lead(source, egress, seen, visit, signal);
      settle('clearance' in got ? got.clearance : 'response' in got ? (got.kept ?? null) : null);
      return 'response' in got ? { response: got.response } : got;
    } catch (err) {
      settle(null);
      throw err;
    } finally {
      this.#flights.delete(key);
    }
  }

  async #lead<R>(
    source: string,
    egress: string,
    seen: number,
    visit: (keep: (h: Harvest) => void) => Promise<R>,
    signal?: AbortSignal,
  ): Promise<{ response: R; kept: WallClearance | null } | { clearance: WallClearance } | { none: true }> {
    const key = `${source}|${egress}`;
    const token = randomUUID();
    const deadline = Date.now() + this.settings.waitMs;
    const claimS = Math.ceil(this.settings.waitMs / 1000);
    let claimed = false;
    while (Date.now() < deadline && !signal?.aborted) {
      const claim = await this.store.claim(source, egress, token, seen, claimS).catch((err: unknown) => {
        this.log.warn({ source, err: (err as Error).message }, 'clearance: claim failed; clearing without it');
        return null;
      });
      if (!claim) break;
      if (claim.claimed) {
        claimed = true;
        break;
      }
      if (claim.ready) return { clearance: claim.ready };
      await this.store.waitFor(key, claim.until ? Math.min(RECHECK_MS, claim.until.getTime() - Date.now()) : 0, signal);
    }
    if (!claimed && Date.now() >= deadline) return { none: true };
    let harvest: Harvest | null = null;
    let response: R;
    try {
      response = await visit((h) => (harvest = h));
    } catch (err) {
      if (claimed) await this.store.release(source, egress, token).catch(() => undefined);
      throw err;
    }
    const kept = harvest ? await this.#keep(source, egress, harvest) : null;
    if (!kept && claimed) await this.store.release(source, egress, token).catch(() => undefined);
    return { response, kept };
  }

  /** Stores what a visit earned, when it holds the wall's own clearance cookie. */
  async #keep(source: string, egress: string, h: Harvest): Promise<WallClearance | null> {
    const primary = h.cookies.filter((c) => isPrimaryCookie(c.name, h.wall));
    if (!primary.length) {
      this.log.warn({ source, wall: h.wall, cookies: h.cookies.map((c) => c.name) }, 'clearance: the cleared visit left no clearance cookie of its wall');
      return null;
    }
    const cap = Date.now() + this.settings.maxAgeS * 1000;
    const own = primary.map((c) => (c.expires > 0 ? c.expires * 1000 : cap));
    const expiresAt = new Date(Math.min(cap, ...own));
    try {
      const kept = await this.store.fill({ source, egress, wall: h.wall, userAgent: h.userAgent, cookies: h.cookies, expiresAt });
      this.#cache.set(`${source}|${egress}`, { clearance: kept, readAt: Date.now() });
      this.events?.event(source, 'reclear');
      this.log.info({ source, wall: h.wall, generation: kept.generation, expires_at: expiresAt.toISOString() }, 'clearance kept');
      return kept;
    } catch (err) {
      this.log.warn({ source, err: (err as Error).message }, 'clearance: not stored');
      return null;
    }
  }
}

/** What a cleared visit leaves to keep: the cookies of the request's walls the browser holds for the source's host (`base`). */
export function harvestOf(cookies: readonly KeptCookie[], base: string, h: HarvestRequest, userAgent: string): Harvest {
  const host = new URL(base).hostname;
  const kept = cookies
    .filter((c) => isWallCookie(c.name, h.walls) && cookieApplies(c, host))
    .map(({ name, value, domain, path, expires }) => ({ name, value, domain, path, expires }));
  return { wall: h.wall, userAgent, cookies: kept };
}

/** Whether a kept cookie is sent to `host` (host-only: that host; domain cookie: it and its subdomains). */
export function cookieApplies(c: KeptCookie, host: string): boolean {
  const h = host.toLowerCase();
  if (!c.domain.startsWith('.')) return c.domain.toLowerCase() === h;
  const d = c.domain.slice(1).toLowerCase();
  return h === d || h.endsWith(`.${d}`);
}

/** Puts the clearance's cookies for `url` in a request's jar (the session's own cookies stay beside them). */
export function applyClearance(jar: CookieJar, url: URL, c: WallClearance): void {
  const now = Date.now() / 1000;
  for (const cookie of c.cookies) {
    if (!cookieApplies(cookie, url.hostname) || (cookie.expires > 0 && cookie.expires <= now)) continue;
    jar.set(url, {
      name: cookie.name,
      value: cookie.value,
      domain: cookie.domain.startsWith('.') ? cookie.domain : undefined,
      path: cookie.path,
      maxAgeSeconds: cookie.expires > 0 ? Math.max(1, Math.floor(cookie.expires - now)) : undefined,
    });
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../tools/index.js';
import { searchHotels, serpHotels } from '../../../tools/hotels.js';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { FRESHNESS } from '../../../src/config/cache-settings.js';
import { cacheKey, cacheKeyText, markedAnswer } from '../../../src/core/result-cache.js';
import { jsonSchema } from '../../../src/core/json-schema.js';
import { shiftFrom } from '../../helpers/dates.js';

/** This file's dates moved ahead by whole weeks, weekdays and distances kept: a past stay or flight date is refused. */
const S = shiftFrom('2026-04-15');

/** The result cache's pure parts: its key, the hit's marker, its settings, and what the descriptors declare. */
describe('result cache key', () => {
  const parse = (raw: unknown) => searchHotels.input.parse(raw);

  it('is one text per input however it was sent: key order, defaults spelled out, null for absent', () => {
    const a = parse({ q: 'London', check_in: S('2026-04-15'), nights: 7 });
    const b = parse({ nights: 7, adults: 2, currency: 'USD', check_in: S('2026-04-15'), q: 'London', check_out: null });
    expect(cacheKeyText(a)).toBe(cacheKeyText(b));
    expect(cacheKey(searchHotels, a)).toBe(cacheKey(searchHotels, b));
    expect(cacheKeyText({ b: [1, { d: 1, c: null }], a: 'x' })).toBe('{"a":"x","b":[1,{"d":1}]}');
  });

  it('leaves out what never changes an answer (cache, no_cache, zero_retention, async, engine), keeps what does', () => {
    const base = { q: 'Tokyo', check_in_date: S('2026-08-11'), check_out_date: S('2026-08-13') };
    const plain = serpHotels.input.parse(base);
    const asked = serpHotels.input.parse({ ...base, engine: 'metasearch_hotels', cache: false, no_cache: 'true', zero_retention: true, async: 'false' });
    expect(cacheKey(serpHotels, asked)).toBe(cacheKey(serpHotels, plain));
    expect(cacheKey(serpHotels, serpHotels.input.parse({ ...base, adults: 3 }))).not.toBe(cacheKey(serpHotels, plain));
    // another operation with the same input is another answer
    expect(cacheKey({ ...serpHotels, name: 'other' }, plain)).not.toBe(cacheKey(serpHotels, plain));
  });
});

describe('a hit as the REST door hands it out', () => {
  const observedAt = new Date('2026-01-02T03:04:05.000Z');
  it('says cached and when it was fetched in search_metadata, else meta (kept beside what meta says), else a meta of its own', () => {
    expect(markedAnswer({ search_metadata: { id: 'req_1', observed_at: 'then' }, x: 1 }, { hit: true, observedAt })).toEqual({
      search_metadata: { id: 'req_1', observed_at: 'then', cached: true },
      x: 1,
    });
    expect(markedAnswer({ meta: { source: 'video' }, x: 1 }, { hit: true, observedAt })).toEqual({
      meta: { source: 'video', cached: true, observed_at: '2026-01-02T03:04:05.000Z' },
      x: 1,
    });
    expect(markedAnswer({ x: 1 }, { hit: true, observedAt })).toEqual({ x: 1, meta: { cached: true, observed_at: '2026-01-02T03:04:05.000Z' } });
  });
  it('leaves a fetched answer as it is', () => {
    const body = { x: 1 };
    expect(markedAnswer(body, { hit: false, observedAt })).toBe(body);
    expect(markedAnswer(body, null)).toBe(body);
  });
});

describe('result cache settings', () => {
  it('default per kind of answer, each overridable, and per operation', () => {
    const c = loadConfig({ RESULT_CACHE_PRICES_S: '120', RESULT_CACHE_OPERATION_S: '{"get_hotel_offers":0}' }).resultCache;
    expect(c).toEqual({
      enabled: true,
      maxBytes: 256 * 1024 * 1024,
      freshness: { prices: 120, listings: 3600, jobs: 10_800, details: 21_600, reviews: 21_600 },
      operations: { get_hotel_offers: 0 },
    });
    expect(FRESHNESS.prices.seconds).toBe(600);
  });
  it('refuses a malformed override with the setting named', () => {
    expect(() => loadConfig({ RESULT_CACHE_OPERATION_S: '{"search_hotels":-1}' })).toThrow(ConfigError);
    expect(() => loadConfig({ RESULT_CACHE_OPERATION_S: '[1]' })).toThrow(/RESULT_CACHE_OPERATION_S: must be a JSON object/);
    expect(() => loadConfig({ RESULT_CACHE_ENABLED: 'maybe' })).toThrow(/RESULT_CACHE_ENABLED/);
  });
});

describe('what the descriptors declare', () => {
  it('every cached operation is metered and takes the shared cache field; the calendars (stored per account) are not cached', () => {
    const cached = TOOLS.filter((t) => t.cache);
    expect(cached.length).toBeGreaterThan(40);
    for (const t of cached) {
      expect(t.metered, t.name).toBe(true);
      const field = (jsonSchema(t.input, 'input') as { properties?: Record<string, unknown> }).properties?.cache;
      expect(field, t.name).toEqual({ type: 'boolean', description: 'false: live' });
    }
    const uncached = TOOLS.filter((t) => t.metered && !t.cache && !t.cacheInHandler).map((t) => t.name);
    expect(uncached.sort()).toEqual(['get_hotel_calendar']);
    // the compatible search routes cache the operation an engine picks; the calendar engine's is not
    expect(TOOLS.find((t) => t.name === 'serp_metasearch_hotels_calendar')).toMatchObject({ cache: null, cacheInHandler: true });
  });

  it("docs/caching.md lists every cached operation under its kind, with that kind's default and setting", () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/caching.md'), 'utf8');
    for (const [kind, f] of Object.entries(FRESHNESS)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| ${kind} |`));
      expect(row, kind).toBeDefined();
      expect(row, kind).toContain(`\`${f.env}\``);
      const listed = [...row!.split('|')[4].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
      expect(listed, kind).toEqual(
        TOOLS.filter((t) => t.cache === kind)
          .map((t) => t.name)
          .sort(),
      );
    }
  });
});

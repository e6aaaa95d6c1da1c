/**
 * The failure table (src/domain/errors.ts) applied the same way by every source: each source's
 * lookup of one object (a property, listing, job, app, video, board) is called through its REST
 * route while its upstream replays one failure at a time (403, 404, 429 with a delay, 503, a block
 * page, a script challenge, garbage, a well-formed reply of another shape, a cut body, a hang), and
 * every answer must carry the table's status, `retryable`, `failure` class, Retry-After and a charge
 * of 0. Real service, real PostgreSQL, real HTTP; the upstreams are the replay server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSTREAM_FAILURES, type UpstreamFailureClass } from '../../../src/domain/errors.js';
import { SECONDARY_DATA_PATH } from '../../../src/sources/otafour/fetch.js';
import { CALENDAR_HASH } from '../../../src/sources/rentaltwo/operations.js';
import { LONDON_TOKENS } from '../../fixtures/hotels-payloads.js';
import { HOTEL_SITE_BEDS24 } from '../../fixtures/ota-payloads.js';
import { REPLAY_URL, startHarness, type Harness } from '../../helpers/ota-harness.js';
import type { RecordedRequest, ReplayRoute } from '../../replay/server.js';

/** What the upstream does, in turn. */
const REPLAYS = ['403', '404', '429', '5xx', 'block page', 'challenge', 'garbage', 'changed shape', 'cut body', 'hang'] as const;
type Replay = (typeof REPLAYS)[number];

/** The class each replay is, by the table. `404` is `not_found` for a request about the caller's object. */
const CLASS_OF: Record<Replay, UpstreamFailureClass | 'cut'> = {
  '403': 'blocked',
  '404': 'not_found',
  '429': 'rate_limited',
  '5xx': 'upstream_error',
  'block page': 'blocked',
  challenge: 'challenge',
  garbage: 'unusable',
  'changed shape': 'contract_changed',
  // a transfer cut mid-body: a network failure of the reply (its class by where it broke), 502 retryable either way
  'cut body': 'cut',
  hang: 'timeout',
};

const UPSTREAM_DELAY_S = 17;
// the upstream timeout is short for the hang, and long enough for a loaded machine's other replies
const TIMEOUT_MS = 2_500;
const HANG_MS = TIMEOUT_MS + 4_000;

type Kind = 'json' | 'html';
const GARBAGE = Buffer.from([0x00, 0x9f, 0x92, 0x96, 0x20, 0x25, 0x25, 0xff, 0x0a, 0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65]);
const SHAPE: Record<Kind, { body: string; type: string }> = {
  json: { body: JSON.stringify({ notice: 'this service moved', items: 'none' }), type: 'application/json' },
  html: { body: '<!doctype html><html><head><title>Welcome</title></head><body><p>Our new site is coming soon.</p></body></html>', type: 'text/html' },
};
const LONG_BODY = (kind: Kind) => (kind === 'json' ? JSON.stringify({ data: 'x'.repeat(4_000) }) : `<html><body>${'<p>x</p>'.repeat(600)}</body></html>`);

function replayRoute(replay: Replay, kind: Kind): Omit<ReplayRoute, 'path' | 'method' | 'match'> {
  switch (replay) {
    case '403':
      return { status: 403, body: '<html><body>Forbidden</body></html>' };
    case '404':
      return { status: 404, body: '<html><body>Not Found</body></html>' };
    case '429':
      return { status: 429, headers: { 'retry-after': String(UPSTREAM_DELAY_S) }, body: 'Too Many Requests' };
    case '5xx':
      return { status: 503, body: '<html><body>Service Unavailable</body></html>' };
    case 'block page':
      return { status: 200, body: '<html><head><script src="https://ct.captcha-delivery.com/c.js"></script></head><body></body></html>' };
    case 'challenge':
      return { status: 202, headers: { 'x-amzn-waf-action': 'challenge' }, body: '<html><body><script>challenge()</script></body></html>' };
    case 'garbage':
      return { status: 200, headers: { 'content-type': kind === 'json' ? 'application/json' : 'text/html' }, body: GARBAGE };
    case 'changed shape':
      return { status: 200, headers: { 'content-type': SHAPE[kind].type }, body: SHAPE[kind].body };
    case 'cut body':
      return { status: 200, headers: { 'content-type': kind === 'json' ? 'application/json' : 'text/html' }, body: LONG_BODY(kind), cut: { at: 40 } };
    case 'hang':
      return { status: 200, body: LONG_BODY(kind), delayMs: HANG_MS };
  }
}

interface SourceCase {
  source: string;
  /** The upstream request the failure replaces (the operation's first, or the one after a warm-up that must pass). */
  upstream: { method?: string; path: string };
  kind: Kind;
  call(h: Harness): Promise<Response>;
  /** Replays this source answers otherwise, and why (only where the operation has no object of the caller's). */
  except?: Partial<Record<Replay, { status: number; failure: UpstreamFailureClass; why: string }>>;
}

const CROWN = LONDON_TOKENS[0];
const stay = { property_id: '9209612', check_in: '2027-06-04', nights: 3 };
const post = (path: string, body: unknown) => (h: Harness) => h.svc.call(path, { key: h.key, body });
const noObject = (why: string) => ({ '404': { status: 502, failure: 'upstream_error' as const, why } });

const SOURCES: SourceCase[] = [
  {
    source: 'metasearch',
    upstream: { path: '/metasearch/travel/search' },
    kind: 'html',
    call: post('/v1/hotels/property', { property_token: CROWN, currency: 'GBP', gl: 'gb' }),
  },
  {
    source: 'otaone',
    upstream: { path: '/otaone/hotel/rs/example-centre.en-gb.html' },
    kind: 'html',
    call: post('/v1/ota/otaone/rooms', { pagename: 'example-centre', country: 'rs', check_in: '2027-06-04', nights: 2, currency: 'EUR' }),
  },
  { source: 'otatwo', upstream: { method: 'POST', path: '/otatwo/graphql' }, kind: 'json', call: post('/v1/ota/otatwo', stay) },
  { source: 'otathree', upstream: { method: 'POST', path: '/otathree/graphql' }, kind: 'json', call: post('/v1/ota/otathree', stay) },
  {
    source: 'otafour',
    upstream: { path: `/otafour${SECONDARY_DATA_PATH}` },
    kind: 'json',
    call: post('/v1/ota/otafour', { property_id: '2454174', check_in: '2027-06-04', nights: 2, currency: 'EUR' }),
  },
  { source: 'rentalone', upstream: { method: 'POST', path: '/rentalone/graphql' }, kind: 'json', call: post('/v1/ota/rentalone', stay) },
  {
    source: 'rentaltwo',
    upstream: { path: `/rentaltwo/api/v3/PdpAvailabilityCalendar/${CALENDAR_HASH}` },
    kind: 'json',
    call: post('/v1/rentaltwo/calendar', { property_id: '38817969', months: 1, price_nights: 'none' }),
  },
  {
    source: 'travelreview',
    upstream: { method: 'POST', path: '/travelreview/mcp' },
    kind: 'json',
    call: post('/v1/ota/travelreview/search', { query: 'Kotor', check_in: '2027-06-04', nights: 1, currency: 'EUR' }),
    except: noObject('a search names no object of the caller: its endpoint answering 404 is an upstream error'),
  },
  {
    source: 'hostel',
    upstream: { path: '/hostel/legacy-hwapi-service/2.2/properties/93919/availability/' },
    kind: 'json',
    call: post('/v1/ota/hostel', { property_id: '93919', check_in: '2027-06-04', nights: 3, guests: 1 }),
  },
  {
    source: 'official',
    upstream: { method: 'POST', path: '/engines/beds24/json/getAvailabilities' },
    kind: 'json',
    call: (h) => h.svc.call('/v1/official', { key: h.key, body: { website: `${h.replay.url}/site/inn`, check_in: '2027-03-10', nights: 2, adults: 2 } }),
  },
  { source: 'network', upstream: { path: '/network/jobs/view/4411867124' }, kind: 'html', call: post('/v1/network/job', { job_id: '4411867124' }) },
  {
    source: 'careers',
    upstream: { path: '/gh/v1/boards/amplitude/jobs' },
    kind: 'json',
    call: post('/v1/careers/jobs', { url: 'https://boards.greenhouse.io/amplitude' }),
  },
  { source: 'video', upstream: { path: '/video/watch' }, kind: 'html', call: post('/v1/video/video', { video_id: 'dsMFmonKDD4' }) },
  { source: 'apps', upstream: { path: '/apps/lookup' }, kind: 'json', call: post('/v1/apps/app', { app_id: 'id803453959' }) },
  { source: 'retail', upstream: { path: '/retail/reviews/product/1736740710' }, kind: 'html', call: post('/v1/retail/reviews', { item_id: '1736740710' }) },
  {
    source: 'trends',
    upstream: { method: 'POST', path: '/trends/trends/api/explore' },
    kind: 'json',
    call: post('/v1/trends/interest', { keyword: 'pizza', time_range: '2021-01-01 2021-01-05' }),
    except: noObject('interest in a keyword names no object of the caller: the endpoint answering 404 is an upstream error'),
  },
];

/** The replay under way; each source's upstream route answers it. */
const now: { replay: Replay | null } = { replay: null };

function routes(): ReplayRoute[] {
  const out: ReplayRoute[] = [{ path: '/site/inn', body: HOTEL_SITE_BEDS24 }];
  for (const s of SOURCES) {
    for (const replay of REPLAYS) {
      out.push({
        method: s.upstream.method ?? 'GET',
        path: s.upstream.path,
        match: (_r: RecordedRequest) => now.replay === replay,
        ...replayRoute(replay, s.kind),
      });
    }
  }
  return out;
}

interface Seen {
  status: number;
  retryable: unknown;
  failure: unknown;
  retryAfter: string | null;
  charged: string | null;
}

function expected(s: SourceCase, replay: Replay): { status: number; retryable: boolean | undefined; failure: string | undefined; retryAfter: string | null } {
  const special = s.except?.[replay];
  const klass = special?.failure ?? CLASS_OF[replay];
  if (klass === 'cut') return { status: 502, retryable: true, failure: undefined, retryAfter: '5' };
  const rule = UPSTREAM_FAILURES[klass];
  const retryAfter = klass === 'rate_limited' ? String(UPSTREAM_DELAY_S) : rule.retryAfterS === null ? null : String(rule.retryAfterS);
  // a 404 answers no failure fields (it is the caller's answer, not a failure of ours)
  if (rule.status === 404) return { status: 404, retryable: undefined, failure: undefined, retryAfter: null };
  return { status: special?.status ?? rule.status, retryable: rule.retryable, failure: klass, retryAfter };
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

describe('every source answers each upstream failure by the one table (replay server, real service and database)', () => {
  let h: Harness;
  const seen = new Map<string, Seen>();

  beforeAll(async () => {
    h = await startHarness(routes(), {
      UPSTREAM_METASEARCH_URL: `${REPLAY_URL}/metasearch`,
      UPSTREAM_NETWORK_URL: `${REPLAY_URL}/network`,
      UPSTREAM_VIDEO_URL: `${REPLAY_URL}/video`,
      UPSTREAM_APPS_URL: `${REPLAY_URL}/apps`,
      UPSTREAM_RETAIL_URL: `${REPLAY_URL}/retail`,
      UPSTREAM_TRENDS_URL: `${REPLAY_URL}/trends`,
      ATS_HOST_OVERRIDES: JSON.stringify({ 'boards-api.greenhouse.io': `${REPLAY_URL}/gh` }),
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    // one replay at a time, four sources at once
    for (const replay of REPLAYS) {
      now.replay = replay;
      await inParallel(SOURCES, 4, async (s) => {
        const res = await s.call(h);
        const body = (await res.json()) as Record<string, unknown>;
        seen.set(`${s.source}/${replay}`, {
          status: res.status,
          retryable: body.retryable,
          failure: body.failure,
          retryAfter: res.headers.get('retry-after'),
          charged: res.headers.get('x-credits-charged'),
        });
      });
    }
    now.replay = null;
  }, 120_000);
  afterAll(() => h?.close());

  for (const s of SOURCES) {
    it(`${s.source}: ${REPLAYS.join(', ')}`, () => {
      const wrong = REPLAYS.flatMap((r) => {
        const a = seen.get(`${s.source}/${r}`)!;
        const e = expected(s, r);
        const got = { status: a.status, retryable: a.retryable, failure: e.failure === undefined ? undefined : a.failure, retryAfter: a.retryAfter };
        // nothing is charged for any failure
        const charged = a.charged === '0' ? [] : [`${r}: charged ${a.charged}`];
        return JSON.stringify(got) === JSON.stringify(e) ? charged : [`${r}: expected ${JSON.stringify(e)}, answered ${JSON.stringify(got)}`, ...charged];
      });
      expect(wrong).toEqual([]);
    });
  }
});

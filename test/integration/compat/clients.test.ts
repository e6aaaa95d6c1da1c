import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { newpipeRoute as mock } from '../../helpers/webdata-replay.js';

/**
 * The compatible search API's own clients, pointed at this service by their base address only,
 * sending exactly what they send (see the README recipe):
 * - LangChain's `SearchApiAPIWrapper` (langchain_community/utilities/searchapi.py): GET
 *   <base>/api/v1/search, header `Authorization: Bearer <key>`, params `engine`, `q` and the
 *   caller's keyword arguments; its `_result_as_string` reads `answer_box`, `knowledge_graph`,
 *   `organic_results[].snippet`, `jobs[].description`, `videos[].title` + `.link`, `images[]`.
 * - Its n8n node (SearchApi/n8n-nodes-searchapi): GET <baseURL>/search?engine=<resource>&<params>
 *   with the credential's `api_key` query parameter and `X-SearchApi-Source: N8N`, `Accept:
 *   application/json`; the credential test GET https://www.searchapi.io/api/v1/me?api_key=…; its
 *   example workflow (examples/searchapi_youtube_transcripts) runs youtube_transcripts with
 *   video_id and lang, splits out `transcripts` and concatenates their `text`. The workflow's video
 *   (2XTdEG0Sus0) has no recorded page; the recorded one (GJLlxj_dtq8) stands in for it.
 */

const TAB = 'youtube/browse-channel-videos-tab-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const CONT = 'youtube/browse-channel-videos-continuation-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const WATCH = 'youtube/watch-page-GJLlxj_dtq8.html';
const PLAYER = 'youtube/player-GJLlxj_dtq8-9-caption-tracks.json';
const SEARCH = 'youtube/search-query-test-videos-filter.newpipe-mock.json';
const JSON3 = readFileSync(new URL('../../fixtures/webdata/timedtext-asr.json3.json', import.meta.url), 'utf8');
const suite = fixtureSuite('compatible search API: its own clients (LangChain, n8n) pointed at this service', TAB, CONT, WATCH, PLAYER, SEARCH);

type Json = Record<string, any>;

describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      mock(CONT, '/youtubei/v1/browse', (b) => typeof b.continuation === 'string'),
      mock(TAB, '/youtubei/v1/browse', (b) => b.browseId === 'UCTwECeGqMZee77BjdoYtI2Q'),
      mock(SEARCH, '/youtubei/v1/search', (b) => b.query === 'test'),
      { path: '/watch', query: { v: 'GJLlxj_dtq8' }, fixture: WATCH },
      { method: 'POST', path: '/youtubei/v1/player', fixture: PLAYER, match: (r) => JSON.parse(r.body).videoId === 'GJLlxj_dtq8' },
      { path: '/api/timedtext', body: JSON3, headers: { 'content-type': 'application/json' } },
    ]);
    svc = await startTestService({ UPSTREAM_VIDEO_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  /** LangChain's SearchApiAPIWrapper._prepare_request + requests.get, with the base URL swapped. */
  const langchain = async (engine: string, query: string, kwargs: Record<string, string> = {}) => {
    const params = new URLSearchParams({ engine, q: query, ...kwargs });
    const res = await fetch(`${svc.url}/api/v1/search?${params}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** The n8n node's declarative request: baseURL + /search, engine from the resource, the credential's qs and header. */
  const n8n = async (path: string, qs: Record<string, string>) => {
    const params = new URLSearchParams({ ...qs, api_key: key });
    const res = await fetch(`${svc.url}/api/v1${path}?${params}`, { headers: { Accept: 'application/json', 'X-SearchApi-Source': 'N8N' } });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('LangChain, engine youtube: videos[] with title and link strings, the lines its _result_as_string builds', async () => {
    const { status, body } = await langchain('youtube', 'test');
    expect(status).toBe(200);
    expect(body.videos.length).toBeGreaterThan(0);
    for (const v of body.videos) {
      expect([typeof v.title, typeof v.link, typeof v.id]).toEqual(['string', 'string', 'string']);
      expect(v.link).toBe(`https://www.youtube.com/watch?v=${v.id}`);
    }
  });

  it('LangChain’s default engine (google) is not served here: 400 with an {error} naming the engines answered (its raise_for_status raises)', async () => {
    const { status, body } = await langchain('google', 'Obama first name');
    expect(status).toBe(400);
    expect(body.error).toMatch(
      /^Unsupported value google in engine: google is an engine of the compatible API that this service has no source for; engines answered here: google_hotels,/,
    );
  });

  it('n8n credential test: GET /api/v1/me with its api_key answers the account (credits, rate limit, billing period)', async () => {
    const { status, body } = await n8n('/me', {});
    expect(status).toBe(200);
    expect(body).toEqual({
      account: { current_month_usage: expect.any(Number), monthly_allowance: expect.any(Number), remaining_credits: expect.any(Number), plan: 'free' },
      api_usage: { searches_this_hour: expect.any(Number), hourly_rate_limit: 600_000 },
      subscription: { period_start: expect.stringMatching(/^\d{4}-\d\d-01T00:00:00Z$/), period_end: expect.stringMatching(/^\d{4}-\d\d-01T00:00:00Z$/) },
    });
    expect(body.account.remaining_credits).toBe(body.account.monthly_allowance - body.account.current_month_usage);
    const bad = await fetch(`${svc.url}/api/v1/me?api_key=sk_${'x'.repeat(32)}`);
    expect([bad.status, ((await bad.json()) as Json).error]).toEqual([401, 'missing or invalid API key']);
  });

  it('n8n example workflow (youtube_transcripts → Split Out transcripts → Summarize text): the joined text is the transcript', async () => {
    const { status, body } = await n8n('/search', { engine: 'youtube_transcripts', video_id: 'GJLlxj_dtq8', lang: 'en' });
    expect(status).toBe(200);
    expect(Array.isArray(body.transcripts)).toBe(true);
    for (const t of body.transcripts) {
      expect(typeof t.text).toBe('string');
      expect(typeof t.start).toBe('number');
    }
    // Split Out on `transcripts`, then Summarize: concatenate `text` separated by a space
    const joined = body.transcripts.map((t: Json) => t.text).join(' ');
    expect(joined).toBe(body.text);
    expect(body.search_parameters).toEqual({ engine: 'youtube_transcripts', video_id: 'GJLlxj_dtq8', lang: 'en' });
  });

  it('n8n chained requests: a video id read as `id` from the channel videos feeds youtube_video; pagination.next_page_token feeds the next page', async () => {
    const first = await n8n('/search', { engine: 'youtube_channel_videos', channel_id: 'UCTwECeGqMZee77BjdoYtI2Q' });
    expect(first.status).toBe(200);
    expect(first.body.videos[0].id).toMatch(/^[\w-]{11}$/);
    const token = first.body.pagination.next_page_token;
    expect(token).toEqual(expect.any(String));
    const next = await n8n('/search', { engine: 'youtube_channel_videos', channel_id: 'UCTwECeGqMZee77BjdoYtI2Q', next_page_token: token });
    expect(next.status).toBe(200);
    expect(next.body.videos.length).toBeGreaterThan(0);
    const video = await n8n('/search', { engine: 'youtube_video', video_id: 'GJLlxj_dtq8' });
    expect(video.status).toBe(200);
    expect(video.body.video.id).toBe('GJLlxj_dtq8');
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getVideo, getVideoChannel, getVideoTranscript, searchVideos } from '../../../tools/video.js';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';
import { newpipeRoute as mock, watchPage } from '../../helpers/webdata-replay.js';

const TAB = 'youtube/browse-channel-videos-tab-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const CONT = 'youtube/browse-channel-videos-continuation-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const INVALID = 'youtube/browse-channel-invalid-id-400.newpipe-mock.json';
const TERMINATED = 'youtube/browse-channel-terminated-UCoaO4U_p7G7AwalqSbGCZOA.newpipe-mock.json';
const RESOLVE = 'youtube/resolve-url-handle-Gronkh.newpipe-mock.json';
const WATCH = 'youtube/watch-page-GJLlxj_dtq8.html';
const PLAYER = 'youtube/player-GJLlxj_dtq8-9-caption-tracks.json';
const AGE = 'youtube/player-Njp5uhTorCo-age-restricted.json';
const UNAVAILABLE = 'youtube/player-video-unavailable.json';
const NO_CAPTIONS = 'youtube/player-dsMFmonKDD4-captions-disabled.json';
const SEARCH = 'youtube/search-query-test-videos-filter.newpipe-mock.json';
const JSON3 = readFileSync(new URL('../../fixtures/webdata/timedtext-asr.json3.json', import.meta.url), 'utf8');

const GRONKH_ID = 'UCYJ61XIK64sp6ZFFS8sctxw';
const BAD_ID = `UC${'x'.repeat(22)}`;
const json = { 'content-type': 'application/json' };

const suite = fixtureSuite('video routes', TAB, CONT, INVALID, TERMINATED, RESOLVE, WATCH, PLAYER, AGE, UNAVAILABLE, NO_CAPTIONS, SEARCH);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;

  beforeAll(async () => {
    replay = await startReplayServer([
      mock(CONT, '/youtubei/v1/browse', (b) => typeof b.continuation === 'string'),
      mock(TAB, '/youtubei/v1/browse', (b) => b.browseId === 'UCTwECeGqMZee77BjdoYtI2Q'),
      mock(TERMINATED, '/youtubei/v1/browse', (b) => b.browseId === GRONKH_ID),
      mock(INVALID, '/youtubei/v1/browse', (b) => b.browseId === BAD_ID),
      mock(RESOLVE, '/youtubei/v1/navigation/resolve_url', (b) => b.url === 'https://www.youtube.com/@Gronkh'),
      mock(SEARCH, '/youtubei/v1/search', (b) => b.query === 'test'),
      { path: '/watch', query: { v: 'GJLlxj_dtq8' }, fixture: WATCH },
      { path: '/watch', query: { v: 'Njp5uhTorCo' }, body: watchPage(AGE) },
      { path: '/watch', query: { v: 'dsMFmonKDD4' }, body: watchPage(NO_CAPTIONS) },
      { path: '/watch', query: { v: 'aaaaaaaaaaa' }, body: watchPage(UNAVAILABLE) },
      { method: 'POST', path: '/youtubei/v1/player', fixture: PLAYER, match: (r) => JSON.parse(r.body).videoId === 'GJLlxj_dtq8' },
      { method: 'POST', path: '/youtubei/v1/player', fixture: NO_CAPTIONS, match: (r) => JSON.parse(r.body).videoId === 'dsMFmonKDD4' },
      { path: '/api/timedtext', body: JSON3, headers: json },
    ]);
    svc = await startTestService({ UPSTREAM_VIDEO_URL: replay.url, UPSTREAM_RETRIES: '0' });
    key = (await svc.key()).key;
  });
  afterAll(async () => {
    await svc?.close();
    await replay?.close();
  });

  it('answers channel metadata and the first page of videos, then the next page by token', async () => {
    const res = await svc.call('/v1/video/channel', { key, body: { channel: 'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q', gl: 'gb' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => getVideoChannel.output.parse(body)).not.toThrow();
    expect(body.channel).toMatchObject({
      channel_id: 'UCTwECeGqMZee77BjdoYtI2Q',
      title: 'Creative Commons',
      handle: '@creativecommons',
      video_count_text: '258 videos',
    });
    expect(body.videos).toHaveLength(30);
    expect(body.videos[0]).toMatchObject({ position: 1, video_id: 'BD-LB23rRBE', length_seconds: 4054 });
    const sent = JSON.parse(replay.requests.find((r) => r.path === '/youtubei/v1/browse')!.body);
    expect(sent).toMatchObject({
      browseId: 'UCTwECeGqMZee77BjdoYtI2Q',
      params: 'EgZ2aWRlb3PyBgQKAjoA',
      context: { client: { clientName: 'WEB', hl: 'en', gl: 'GB' } },
    });

    const next = await svc.call('/v1/video/channel', { key, body: { page_token: body.next_page_token } });
    expect(next.status).toBe(200);
    const page2 = (await next.json()) as any;
    expect(page2.channel).toBeNull();
    expect(page2.search_parameters.channel).toBeNull();
    expect(page2.videos[0]).toMatchObject({ position: 31, video_id: 'CIFHx7_z3Vc', channel: { id: 'UCTwECeGqMZee77BjdoYtI2Q' } });
    expect(page2.next_page_token).toBeTruthy();
  });

  it('404 for an unknown channel id and for a removed channel reached by handle, free', async () => {
    const bad = await svc.call('/v1/video/channel', { key, body: { channel: BAD_ID } });
    expect(bad.status).toBe(404);
    expect(bad.headers.get('x-credits-charged')).toBe('0');
    const removed = await svc.call('/v1/video/channel', { key, body: { channel: '@Gronkh' } });
    expect(removed.status).toBe(404);
    expect(((await removed.json()) as any).detail).toBe('This channel was removed because it violated our Community Guidelines.');
  });

  it('400 for a forged page token, 422 without channel or token', async () => {
    expect((await svc.call('/v1/video/channel', { key, body: { page_token: 'garbage' } })).status).toBe(400);
    const none = await svc.call('/v1/video/channel', { key, body: {} });
    expect(none.status).toBe(422);
    expect(typeof ((await none.json()) as any).detail).toBe('string');
  });

  it('answers video metadata from the watch page, charged 1 credit', async () => {
    const res = await svc.call('/v1/video/video', { key, body: { video_id: 'https://youtu.be/GJLlxj_dtq8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1');
    const body = (await res.json()) as any;
    expect(() => getVideo.output.parse(body)).not.toThrow();
    expect(body.search_parameters.video_id).toBe('GJLlxj_dtq8');
    expect(body.video).toMatchObject({ title: 'Surface Go Review - It’s Awesome', views: 1856109, likes: 43864, length_seconds: 316, age_restricted: false });
    expect(body.video.chapters).toHaveLength(10);
  });

  it('an age-gated video answers its metadata; an unavailable one is a free 404', async () => {
    const age = await svc.call('/v1/video/video', { key, body: { video_id: 'Njp5uhTorCo' } });
    expect(age.status).toBe(200);
    expect(((await age.json()) as any).video).toMatchObject({ video_id: 'Njp5uhTorCo', age_restricted: true, length_seconds: 452 });
    const gone = await svc.call('/v1/video/video', { key, body: { video_id: 'aaaaaaaaaaa' } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('x-credits-charged')).toBe('0');
  });

  it('transcript: watch page, app-client player, then the English creator track in json3', async () => {
    const res = await svc.call('/v1/video/transcript', { key, body: { video_id: 'GJLlxj_dtq8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1');
    const body = (await res.json()) as any;
    expect(() => getVideoTranscript.output.parse(body)).not.toThrow();
    expect(body.video).toEqual({
      video_id: 'GJLlxj_dtq8',
      title: 'Surface Go Review - It’s Awesome',
      channel_id: 'UCVYamHliCI9rw1tHR1xbkfw',
      author: 'Dave2D',
      length_seconds: 316,
    });
    expect(body.language).toEqual({ code: 'en', name: 'English', kind: 'manual', translatable: true, is_default: true });
    expect(body.available_languages).toHaveLength(9);
    expect(body.text).toBe("this is the surface go it's Microsoft's newest tablet [Music]");
    expect(body.meta.client).toBe('ANDROID');
    const player = replay.requests.find((r) => r.path === '/youtubei/v1/player')!;
    expect(player.query.key).toBe('AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8');
    expect(JSON.parse(player.body).context.client.clientName).toBe('ANDROID');
    expect(replay.requests.find((r) => r.path === '/api/timedtext')!.query).toMatchObject({ v: 'GJLlxj_dtq8', fmt: 'json3' });
  });

  it('transcript 404s: no track in lang (lists the available ones), no captions, age-gated', async () => {
    const fr = await svc.call('/v1/video/transcript', { key, body: { video_id: 'GJLlxj_dtq8', lang: 'fr' } });
    // the answer's body said when it failed otherwise (a 502 once at a load of 25)
    expect(fr.status, await fr.clone().text()).toBe(404);
    expect(fr.headers.get('x-credits-charged')).toBe('0');
    expect(((await fr.json()) as any).detail).toMatch(/^no transcript in fr; available: zh, cs, en, en \(auto-generated\), de/);
    const none = await svc.call('/v1/video/transcript', { key, body: { video_id: 'dsMFmonKDD4' } });
    expect(none.status).toBe(404);
    expect(((await none.json()) as any).detail).toMatch(/no captions/);
    const age = await svc.call('/v1/video/transcript', { key, body: { video_id: 'Njp5uhTorCo' } });
    expect(age.status).toBe(404);
    expect(((await age.json()) as any).detail).toMatch(/age-restricted/);
  });

  it('searches videos', async () => {
    const res = await svc.call('/v1/video/search', { key, body: { q: 'test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('2');
    const body = (await res.json()) as any;
    expect(() => searchVideos.output.parse(body)).not.toThrow();
    expect(body.estimated_results).toBe(430195562);
    expect(body.videos).toHaveLength(20);
    expect(body.videos[0]).toMatchObject({ video_id: 'Z8KYabgkMbw', title: 'Blind Test TOUT GENRE | 140 extraits' });
    expect(body.next_page_token).toBeTruthy();
  });
});

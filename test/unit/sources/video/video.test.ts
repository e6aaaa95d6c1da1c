import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture, readFixtureJson } from '../../../helpers/fixtures.js';
import { NotFound, UpstreamFailed } from '../../../../src/domain/errors.js';
import {
  assertVideoChannelExists,
  parseVideoChannelContinuation,
  parseVideoChannelPage,
  parseVideoResolveUrl,
} from '../../../../src/sources/video/parse-channel.js';
import { parseVideoSearch } from '../../../../src/sources/video/parse-search.js';
import { extractVideoWatchData, parseVideo, parseVideoWatchPage } from '../../../../src/sources/video/parse-video.js';
import {
  decodeVideoPageToken,
  encodeVideoPageToken,
  parseChannelInput,
  parseVideoIdInput,
  videoBrowseRequest,
} from '../../../../src/sources/video/requests.js';
import { newpipeBody } from '../../../helpers/recorded.js';

const TAB = 'youtube/browse-channel-videos-tab-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const CONT = 'youtube/browse-channel-videos-continuation-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const INVALID = 'youtube/browse-channel-invalid-id-400.newpipe-mock.json';
const TERMINATED = 'youtube/browse-channel-terminated-UCoaO4U_p7G7AwalqSbGCZOA.newpipe-mock.json';
const RESOLVE = 'youtube/resolve-url-handle-Gronkh.newpipe-mock.json';
const WATCH = 'youtube/watch-page-GJLlxj_dtq8.html';
const NEXT = 'youtube/next-ud9d5cMDP_0-with-chapters.newpipe-mock.json';
const AGE = 'youtube/player-Njp5uhTorCo-age-restricted.json';
const BOT = 'youtube/player-bot-check-login-required.json';
const UNAVAILABLE = 'youtube/player-video-unavailable.json';
const NO_CAPTIONS = 'youtube/player-dsMFmonKDD4-captions-disabled.json';
const SEARCH = 'youtube/search-query-test-videos-filter.newpipe-mock.json';

const channel = fixtureSuite('video channel parser', TAB, CONT);
describe(channel.title, () => {
  it('reads channel metadata from the Videos tab browse answer', () => {
    const page = parseVideoChannelPage(newpipeBody(TAB).body);
    expect(page.channel).toEqual({
      channel_id: 'UCTwECeGqMZee77BjdoYtI2Q',
      title: 'Creative Commons',
      handle: '@creativecommons',
      link: 'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q',
      subscribers_text: '8.84k subscribers',
      video_count_text: '258 videos',
      description:
        'A nonprofit building a vibrant, collaborative global commons through CC licenses, programs, and a growing network. \n\nImage: Lukas Schlagenhauf (CC BY-ND 2.0)',
      keywords: ['creative commons', 'remix', 'culture', 'nonprofit'],
      rss_url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCTwECeGqMZee77BjdoYtI2Q',
      is_family_safe: true,
      avatar: 'https://yt3.googleusercontent.com/ytc/AIdro_lSk0TpqM-SxI52i5LwI00Y_84Dd-2NLmGa8CsSNoFDF7E=s900-c-k-c0x00ffffff-no-rj',
      banner: expect.stringContaining('=w2560-fcrop64=1,00005a57ffffa5a8'),
      links: [{ title: 'creativecommons.org', url: 'https://creativecommons.org/' }],
      more_links_text: 'and 3 more links',
    });
  });

  it('reads the first page of videos, newest first, with the continuation token', () => {
    const page = parseVideoChannelPage(newpipeBody(TAB).body);
    expect(page.videos).toHaveLength(30);
    expect(page.videos[0]).toMatchObject({
      position: 1,
      video_id: 'BD-LB23rRBE',
      title: 'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
      link: 'https://www.youtube.com/watch?v=BD-LB23rRBE',
      views_text: '28 views',
      published_time: '13 days ago',
      length: '1:07:34',
      length_seconds: 4054,
      is_live: false,
      badges: [],
      channel: { name: 'Creative Commons', id: 'UCTwECeGqMZee77BjdoYtI2Q', handle: '@creativecommons' },
    });
    expect(page.videos[9]).toMatchObject({
      video_id: 'dJG0jqhsa3c',
      title: 'Creative Commons License Chooser Demonstration',
      views_text: '362 views',
      length_seconds: 211,
    });
    expect(page.videos[29]).toMatchObject({ position: 30, video_id: 'Wi5vPm56fzg' });
    expect(page.next_page_token!.startsWith('4qmFsgLZCRIYVUNUd0VDZUdxTVplZTc3Qmpkb1l0STJR')).toBe(true);
  });

  it('reads the next page from the continuation answer', () => {
    const page = parseVideoChannelContinuation(newpipeBody(CONT).body, { offset: 30 });
    expect(page.channel).toBeNull();
    expect(page.videos).toHaveLength(30);
    expect(page.videos[0]).toMatchObject({
      position: 31,
      video_id: 'CIFHx7_z3Vc',
      title: 'ALA Core webinar series, part 2 - Deep Dive into Creative Commons Licensing',
      views_text: '117 views',
      length: '1:00:01',
    });
    expect(page.videos[29]).toMatchObject({ position: 60, video_id: '9c1Kl8ElHug', length_seconds: 2727 });
    expect(page.next_page_token!.startsWith('4qmFsgLBGBIYVUNUd0VDZUdxTVplZTc3Qmpkb1l0STJR')).toBe(true);
  });
});

const unknown = fixtureSuite('video unknown channel detection', INVALID, TERMINATED, RESOLVE);
describe(unknown.title, () => {
  it('maps the 400 INVALID_ARGUMENT answer and a removed channel to 404', () => {
    const bad = newpipeBody(INVALID);
    expect(bad.status).toBe(400);
    expect(() => assertVideoChannelExists(bad.status, bad.body)).toThrow(NotFound);
    const gone = newpipeBody(TERMINATED);
    expect(() => assertVideoChannelExists(gone.status, gone.body)).toThrow('This channel was removed because it violated our Community Guidelines.');
    expect(() => parseVideoChannelPage(gone.body)).toThrow(NotFound);
  });

  it('resolves a handle to its channel id', () => {
    expect(parseVideoResolveUrl(newpipeBody(RESOLVE).body)).toBe('UCYJ61XIK64sp6ZFFS8sctxw');
  });
});

const watch = fixtureSuite('video watch page parser', WATCH);
describe(watch.title, () => {
  it('reads the video object from ytInitialPlayerResponse and ytInitialData', () => {
    const v = parseVideoWatchPage(readFixture(WATCH));
    expect(v).toMatchObject({
      video_id: 'GJLlxj_dtq8',
      title: 'Surface Go Review - It’s Awesome',
      link: 'https://www.youtube.com/watch?v=GJLlxj_dtq8',
      channel: {
        name: 'Dave2D',
        id: 'UCVYamHliCI9rw1tHR1xbkfw',
        handle: '@Dave2D',
        link: 'https://www.youtube.com/channel/UCVYamHliCI9rw1tHR1xbkfw',
        verified: true,
        subscribers_text: '3.68M subscribers',
      },
      views: 1856109,
      views_text: '1,856,109 views',
      likes: 43864,
      likes_text: '43K',
      published_date: '2018-08-02T13:00:08Z',
      upload_date: '2018-08-02T13:00:08Z',
      date_text: 'Aug 2, 2018',
      relative_date_text: '6 years ago',
      length_seconds: 316,
      category: 'Science & Technology',
      is_live: false,
      is_live_content: false,
      is_family_safe: true,
      is_unlisted: false,
      is_private: false,
      age_restricted: false,
      comment_count_text: '2.7K',
    });
    expect(v.description!.startsWith('Dave2D review of the Microsoft Surface Go.')).toBe(true);
    expect(v.keywords).toHaveLength(15);
    expect(v.keywords[0]).toBe('Dave2D');
    expect(v.thumbnails.at(-1)).toEqual({ url: 'https://i.ytimg.com/vi/GJLlxj_dtq8/maxresdefault.jpg', width: 1920, height: 1080 });
    expect(v.chapters).toHaveLength(10);
    expect(v.chapters[0]).toEqual({ title: 'Build Quality', start_s: 39.16, source: 'auto-generated' });
    expect(v.chapters[9]).toEqual({ title: 'Ports', start_s: 254.709, source: 'auto-generated' });
  });

  it('finds the innertube key on the page', () => {
    expect(extractVideoWatchData(readFixture(WATCH)).api_key).toBe('AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8');
  });
});

const next = fixtureSuite('video next-answer parser (creator chapters, exact likes)', NEXT);
describe(next.title, () => {
  it('reads exact views and likes from text and creator-made chapters', () => {
    const v = parseVideo({ data: newpipeBody(NEXT).body });
    expect(v).toMatchObject({
      video_id: 'ud9d5cMDP_0',
      title: 'Vitamin D wissenschaftlich geprüft',
      views: 2133707,
      views_text: '2,133,707 views',
      likes: 73111,
      likes_text: '73k',
      date_text: '19 Nov 2020',
      channel: { name: 'MAITHINK X', id: 'UCyHDQ5C6z1NDmJ4g6SerW8g', handle: '@maithinkx', verified: true, subscribers_text: '1.52m subscribers' },
      comment_count_text: '21k',
      // no player answer in hand: its fields stay unknown
      published_date: null,
      age_restricted: null,
    });
    expect(v.chapters.map((c) => [c.title, c.start_s])).toEqual([
      ['Ein erstaunlich kontroverses Thema', 0],
      ['Was ist Vitamin D?', 164],
      ['Die Saisonalitätshypothese', 364],
      ['Klinische Studien zu Vitamin D', 498],
      ['Ab wann hat man Vitamin-D-Mangel?', 615],
      ['Vorsicht vor pauschalen Empfehlungen', 803],
      ['Keksempfehlungen', 981],
    ]);
    expect(v.chapters.every((c) => c.source === 'creator-made')).toBe(true);
  });
});

const players = fixtureSuite('video player availability', AGE, BOT, UNAVAILABLE, NO_CAPTIONS);
describe(players.title, () => {
  it('answers an age-gated video with its metadata', () => {
    const v = parseVideo({ player: readFixtureJson(AGE) });
    expect(v).toMatchObject({
      video_id: 'Njp5uhTorCo',
      title: 'Laura Branigan - Self Control (Moreno J Remix) Age-restricted',
      age_restricted: true,
      length_seconds: 452,
      channel: { id: 'UCJqyF-E8VW75fQz61ftchzg' },
    });
  });

  it('maps a bot check to 502 and an unavailable video to 404', () => {
    expect(() => parseVideo({ player: readFixtureJson(BOT) })).toThrow(UpstreamFailed);
    expect(() => parseVideo({ player: readFixtureJson(UNAVAILABLE) })).toThrow(NotFound);
  });

  it('reads a playable video without captions', () => {
    const v = parseVideo({ player: readFixtureJson(NO_CAPTIONS) });
    expect(v).toMatchObject({
      video_id: 'dsMFmonKDD4',
      title: 'Angèle - Eels x Richard Cocciante | A Take Away Show',
      age_restricted: false,
      length_seconds: 288,
    });
    // the player answer has no watch data (no hashtags above the title): the description states them
    expect(v.hashtags).toEqual(['#Angèle', '#BrolLaSuite', '#Blogothèque']);
  });
});

const search = fixtureSuite('video search parser', SEARCH);
describe(search.title, () => {
  it('reads the video results', () => {
    const s = parseVideoSearch(newpipeBody(SEARCH).body);
    expect(s.estimated_results).toBe(430195562);
    expect(s.videos).toHaveLength(20);
    expect(s.videos[0]).toMatchObject({
      video_id: 'Z8KYabgkMbw',
      title: 'Blind Test TOUT GENRE | 140 extraits',
      views_text: '390,201 views',
      published_time: '9 months ago',
      length: '47:20',
      length_seconds: 2840,
      channel: { name: 'Blind Test & Chill', id: 'UCuEBTg6pcG7s3PpPGRtFKQA', handle: '@BlindTest-Chill' },
    });
    expect(s.videos[5].channel.handle).toBe('@BlindTestsdeLéo-d2n');
    expect(s.next_page_token).toBeTruthy();
  });
});

describe('video inputs and requests', () => {
  it('takes the id from ids and the usual URLs', () => {
    for (const input of [
      'GJLlxj_dtq8',
      'https://www.youtube.com/watch?v=GJLlxj_dtq8&t=39s',
      'https://youtu.be/GJLlxj_dtq8',
      'https://www.youtube.com/shorts/GJLlxj_dtq8',
      'https://www.youtube.com/embed/GJLlxj_dtq8',
      'https://www.youtube.com/live/GJLlxj_dtq8?si=x',
    ]) {
      expect(parseVideoIdInput(input)).toBe('GJLlxj_dtq8');
    }
    expect(() => parseVideoIdInput('https://example.com/watch?v=GJLlxj_dtq8')).toThrow();
  });

  it('reads channel inputs and builds the Videos tab requests', () => {
    expect(parseChannelInput('@creativecommons')).toEqual({ kind: 'handle', handle: '@creativecommons' });
    expect(parseChannelInput('UCTwECeGqMZee77BjdoYtI2Q')).toEqual({ kind: 'id', id: 'UCTwECeGqMZee77BjdoYtI2Q' });
    expect(parseChannelInput('https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q/videos')).toEqual({ kind: 'id', id: 'UCTwECeGqMZee77BjdoYtI2Q' });
    // a channel URL whose path is not valid percent-encoding is invalid input, not a fault
    expect(() => parseChannelInput('https://www.youtube.com/@%E0%A4%A')).toThrow(/channel must be/);
    const browse = JSON.parse(videoBrowseRequest('UCTwECeGqMZee77BjdoYtI2Q', 'en', 'gb').body!);
    expect(browse).toMatchObject({
      browseId: 'UCTwECeGqMZee77BjdoYtI2Q',
      params: 'EgZ2aWRlb3PyBgQKAjoA',
      context: { client: { clientName: 'WEB', hl: 'en', gl: 'GB' } },
    });
  });

  it('round-trips our page token and rejects a bad one', () => {
    const t = encodeVideoPageToken({ token: '4qmFsgLZ', offset: 30, channel_id: 'UCTwECeGqMZee77BjdoYtI2Q' });
    expect(decodeVideoPageToken(t)).toEqual({ token: '4qmFsgLZ', offset: 30, channel_id: 'UCTwECeGqMZee77BjdoYtI2Q' });
    expect(() => decodeVideoPageToken('garbage')).toThrow('invalid page_token');
  });
});

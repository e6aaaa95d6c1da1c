import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixture, readFixtureJson } from '../../../helpers/fixtures.js';
import { NotFound, UpstreamFailed } from '../../../../src/domain/errors.js';
import { extractVideoWatchData } from '../../../../src/sources/video/parse-video.js';
import { videoTimedTextRequest } from '../../../../src/sources/video/requests.js';
import { parseTimedText, transcriptText } from '../../../../src/sources/video/timedtext.js';
import { type CaptionTrack, captionLanguage, chooseCaptionTrack, parseCaptionTracks, selectTranscriptTrack } from '../../../../src/sources/video/transcript.js';

const PLAYER = 'youtube/player-GJLlxj_dtq8-9-caption-tracks.json';
const WATCH = 'youtube/watch-page-GJLlxj_dtq8.html';
const AGE = 'youtube/player-Njp5uhTorCo-age-restricted.json';
const NO_CAPTIONS = 'youtube/player-dsMFmonKDD4-captions-disabled.json';

const payload = (name: string) => readFileSync(new URL(`../../../fixtures/webdata/${name}`, import.meta.url), 'utf8');

const tracks = fixtureSuite('video caption track list', PLAYER, WATCH);
describe(tracks.title, () => {
  it('lists the nine tracks with kind and the default flag', () => {
    const list = parseCaptionTracks(readFixtureJson(PLAYER));
    expect(list.map((t) => `${t.code}:${t.kind}`)).toEqual([
      'zh:manual',
      'cs:manual',
      'en:manual',
      'en:asr',
      'de:manual',
      'hi:manual',
      'ja:manual',
      'ko:manual',
      'es:manual',
    ]);
    expect(list.filter((t) => t.is_default).map((t) => t.code)).toEqual(['en']);
    expect(captionLanguage(list[3])).toEqual({ code: 'en', name: 'English (auto-generated)', kind: 'asr', translatable: true, is_default: false });
    expect(list[2].base_url.startsWith('https://www.youtube.com/api/timedtext?v=GJLlxj_dtq8')).toBe(true);
  });

  it('reads the same list from the watch page player response', () => {
    const { player } = extractVideoWatchData(readFixture(WATCH));
    expect(parseCaptionTracks(player).map((t) => t.code)).toEqual(['zh', 'cs', 'en', 'en', 'de', 'hi', 'ja', 'ko', 'es']);
  });

  it('applies the choice rules', () => {
    const list = parseCaptionTracks(readFixtureJson(PLAYER));
    expect(chooseCaptionTrack(list)).toMatchObject({ code: 'en', kind: 'manual' });
    expect(chooseCaptionTrack(list, 'en')).toMatchObject({ code: 'en', kind: 'manual' });
    expect(chooseCaptionTrack(list, 'de')?.name).toBe('German');
    expect(chooseCaptionTrack(list, 'fr')).toBeNull();
    expect(() => selectTranscriptTrack(readFixtureJson(PLAYER), 'fr')).toThrow(/no transcript in fr; available: zh, cs, en, en \(auto-generated\), de/);
  });
});

describe('caption choice rules on a hand-made track list', () => {
  const t = (code: string, kind: 'manual' | 'asr', is_default = false): CaptionTrack => ({
    code,
    name: code,
    kind,
    translatable: true,
    is_default,
    base_url: `u:${code}:${kind}`,
  });

  it('prefers creator captions, then the exact code, and lets a base code match regional variants', () => {
    const list = [t('en', 'asr'), t('en-GB', 'manual'), t('pt-BR', 'manual'), t('fr', 'manual', true)];
    expect(chooseCaptionTrack(list, 'en')?.base_url).toBe('u:en-GB:manual');
    expect(chooseCaptionTrack(list, 'pt')?.code).toBe('pt-BR');
    expect(chooseCaptionTrack(list, 'pt-PT')).toBeNull();
    expect(chooseCaptionTrack([t('en', 'asr'), t('en', 'manual')], 'en')?.kind).toBe('manual');
  });

  it('falls back to the default track when there is no English', () => {
    expect(chooseCaptionTrack([t('de', 'manual'), t('fr', 'manual', true)])?.code).toBe('fr');
    expect(chooseCaptionTrack([])).toBeNull();
  });
});

const gates = fixtureSuite('video transcript 404s', AGE, NO_CAPTIONS);
describe(gates.title, () => {
  it('says when the video is age-gated or has no captions', () => {
    expect(() => selectTranscriptTrack(readFixtureJson(AGE))).toThrow(/age-restricted/);
    expect(() => selectTranscriptTrack(readFixtureJson(NO_CAPTIONS))).toThrow(NotFound);
    expect(() => selectTranscriptTrack(readFixtureJson(NO_CAPTIONS))).toThrow(/no captions/);
  });
});

describe('timedtext bodies (self-written, mirroring the real formats)', () => {
  it('parses json3: window events and newline-only appends are skipped, line breaks become spaces', () => {
    const segs = parseTimedText(payload('timedtext-asr.json3.json'));
    expect(segs).toEqual([
      { start_s: 0.16, duration_s: 4.64, text: 'this is the surface go' },
      { start_s: 2.56, duration_s: 4.2, text: "it's Microsoft's newest tablet" },
      { start_s: 6.76, duration_s: 1.5, text: '[Music]' },
    ]);
    expect(transcriptText(segs)).toBe("this is the surface go it's Microsoft's newest tablet [Music]");
  });

  it('parses srv3 with word spans and decodes entities; empty cues are dropped', () => {
    expect(parseTimedText(payload('timedtext-manual.srv3.xml'))).toEqual([
      { start_s: 0.16, duration_s: 4.64, text: "This is the Surface Go & it's Microsoft's newest tablet." },
      { start_s: 4.81, duration_s: 3.19, text: 'It starts at $399' },
    ]);
  });

  it('parses the default XML with its double-escaped entities', () => {
    expect(parseTimedText(payload('timedtext-default.xml'))).toEqual([
      { start_s: 0.16, duration_s: 4.64, text: "This is the Surface Go & it's Microsoft's newest tablet." },
      { start_s: 4.81, duration_s: 3.19, text: 'It starts at $399' },
    ]);
  });

  it('treats an empty body as a failed upstream and asks for json3', () => {
    expect(() => parseTimedText('')).toThrow(UpstreamFailed);
    expect(videoTimedTextRequest('https://www.youtube.com/api/timedtext?v=GJLlxj_dtq8&lang=en&fmt=srv3').path).toBe(
      '/api/timedtext?v=GJLlxj_dtq8&lang=en&fmt=json3',
    );
  });
});

import { NotFound } from '../../domain/errors.js';
import { readPlayability } from './playability.js';
import { arr, at, obj } from '../../domain/json.js';
import { rendererText } from './yt-json.js';

export interface CaptionTrack {
  code: string;
  name: string | null;
  kind: 'manual' | 'asr';
  translatable: boolean;
  is_default: boolean;
  /** Timedtext URL of the track (not part of the contract's language object). */
  base_url: string;
}

/** Caption tracks of a player response, in the player's order; [] when captions are off for the video. */
export function parseCaptionTracks(player: unknown): CaptionTrack[] {
  const list = obj(at(player, 'captions', 'playerCaptionsTracklistRenderer'));
  if (!list) return [];
  const audio = arr(list.audioTracks);
  const audioIdx = typeof list.defaultAudioTrackIndex === 'number' ? list.defaultAudioTrackIndex : 0;
  const defIdx = at(audio[audioIdx] ?? audio[0], 'defaultCaptionTrackIndex');
  const hasDefault = at(audio[audioIdx] ?? audio[0], 'hasDefaultTrack') !== false;
  return arr(list.captionTracks)
    .map((t, i) => {
      const o = obj(t);
      if (!o || typeof o.languageCode !== 'string' || typeof o.baseUrl !== 'string') return null;
      return {
        code: o.languageCode,
        name: rendererText(o.name),
        kind: o.kind === 'asr' ? 'asr' : 'manual',
        translatable: o.isTranslatable === true,
        is_default: hasDefault && typeof defIdx === 'number' && defIdx === i,
        base_url: o.baseUrl,
      };
    })
    .filter((t): t is CaptionTrack => t !== null);
}

function base(code: string): string {
  return code.toLowerCase().split(/[-_]/)[0]!;
}

/**
 * The track the contract's rules pick: for a language, creator captions before auto-generated,
 * the exact code before a regional variant of a base code (`en` matches `en-GB`); without a
 * language, English when present, else the default track. Null when no track fits.
 */
export function chooseCaptionTrack(tracks: CaptionTrack[], lang?: string | null): CaptionTrack | null {
  if (tracks.length === 0) return null;
  if (!lang) return chooseCaptionTrack(tracks, 'en') ?? tracks.find((t) => t.is_default) ?? tracks[0]!;
  const wanted = lang.toLowerCase();
  const isBase = !/[-_]/.test(wanted);
  const scored = tracks
    .map((t, i) => {
      const code = t.code.toLowerCase();
      const exact = code === wanted;
      const variant = isBase && !exact && base(code) === wanted;
      if (!exact && !variant) return null;
      return { t, score: (t.kind === 'manual' ? 0 : 4) + (exact ? 0 : 2) + (t.is_default ? 0 : 1), i };
    })
    .filter((s): s is { t: CaptionTrack; score: number; i: number } => s !== null)
    .sort((a, b) => a.score - b.score || a.i - b.i);
  return scored[0]?.t ?? null;
}

/** The contract's language object of a track. */
export function captionLanguage(t: CaptionTrack): Omit<CaptionTrack, 'base_url'> {
  const { base_url: _u, ...lang } = t;
  return lang;
}

function listed(tracks: CaptionTrack[]): string {
  return tracks.map((t) => `${t.code}${t.kind === 'asr' ? ' (auto-generated)' : ''}`).join(', ');
}

/**
 * Picks the track for `/v1/video/transcript` or throws the contract's 404s: age-gated video,
 * no captions, or no track in the asked language (the detail lists the available ones).
 */
export function selectTranscriptTrack(player: unknown, lang?: string | null): { track: CaptionTrack; tracks: CaptionTrack[] } {
  const playability = readPlayability(player);
  if (playability?.age_restricted) throw new NotFound('transcript not available: the video is age-restricted');
  const tracks = parseCaptionTracks(player);
  if (tracks.length === 0) throw new NotFound('transcript not available: the video has no captions');
  const track = chooseCaptionTrack(tracks, lang);
  if (!track) throw new NotFound(`no transcript in ${lang}; available: ${listed(tracks)}`);
  return { track, tracks };
}

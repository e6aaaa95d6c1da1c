import { UpstreamBlocked, UpstreamContractChanged } from '../../domain/errors.js';
import { assertVideoAvailable } from './playability.js';
import { arr, at, dateOrInstant, isObject, type JsonObject, obj, str } from '../../domain/json.js';
import { bestThumb, exactCount, extractAssignedJson, rendererText, type Thumb, thumbs } from './yt-json.js';
import { decodeUrlPart } from '../shared/url-text.js';

interface VideoChapter {
  title: string;
  start_s: number;
  source: 'creator-made' | 'auto-generated';
}

export interface VideoRecord {
  video_id: string;
  title: string | null;
  link: string;
  description: string | null;
  channel: {
    name: string | null;
    id: string | null;
    handle: string | null;
    link: string | null;
    verified: boolean | null;
    thumbnail: string | null;
    subscribers_text: string | null;
  };
  views: number | null;
  views_text: string | null;
  likes: number | null;
  likes_text: string | null;
  published_date: string | null;
  upload_date: string | null;
  date_text: string | null;
  relative_date_text: string | null;
  length_seconds: number | null;
  category: string | null;
  keywords: string[];
  hashtags: string[];
  is_live: boolean | null;
  is_live_content: boolean | null;
  is_family_safe: boolean | null;
  is_unlisted: boolean | null;
  is_private: boolean | null;
  age_restricted: boolean | null;
  thumbnails: Thumb[];
  chapters: VideoChapter[];
  comment_count_text: string | null;
}

const CHAPTER_PANELS: [RegExp, VideoChapter['source']][] = [
  [/description-chapters$/, 'creator-made'],
  [/auto-chapters$/, 'auto-generated'],
];
const MARKER_KEYS: Record<string, VideoChapter['source']> = { DESCRIPTION_CHAPTERS: 'creator-made', AUTO_CHAPTERS: 'auto-generated' };
const VERIFIED = /VERIFIED|ARTIST/;
/** A hashtag as the platform links it in a description: after a space or line start, at least one letter. */
const HASHTAG = /(?<=^|[\s(])#(?=[\p{L}\p{M}\p{N}_]*\p{L})[\p{L}\p{M}\p{N}_]+/gu;

/** The hashtags a description states, in order. */
function descriptionHashtags(description: string | null): string[] {
  return description ? [...description.matchAll(HASHTAG)].map((m) => m[0]) : [];
}

function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** publishDate / uploadDate: a date-only value stays a date (older pages state only the day). */
const isoUtc = dateOrInstant;

function watchContents(data: unknown): JsonObject[] {
  return arr(at(data, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents')).filter(isObject);
}

function likeButton(primary: JsonObject | null): JsonObject | null {
  const buttons = arr(at(primary, 'videoActions', 'menuRenderer', 'topLevelButtons'));
  for (const b of buttons) {
    const vm = obj(
      at(
        b,
        'segmentedLikeDislikeButtonViewModel',
        'likeButtonViewModel',
        'likeButtonViewModel',
        'toggleButtonViewModel',
        'toggleButtonViewModel',
        'defaultButtonViewModel',
        'buttonViewModel',
      ),
    );
    if (vm) return vm;
  }
  return null;
}

function panels(data: unknown): JsonObject[] {
  return arr(at(data, 'engagementPanels'))
    .map((p) => obj(obj(p)?.engagementPanelSectionListRenderer))
    .filter(Boolean) as JsonObject[];
}

/** Chapters from the macro-marker panels, else from the player bar's markers map. */
function parseVideoChapters(data: unknown): VideoChapter[] {
  for (const panel of panels(data)) {
    const id = str(panel, 'panelIdentifier') ?? str(panel, 'targetId') ?? '';
    const source = CHAPTER_PANELS.find(([re]) => re.test(id))?.[1];
    if (!source) continue;
    const items = arr(at(panel, 'content', 'macroMarkersListRenderer', 'contents'))
      .map((i) => obj(obj(i)?.macroMarkersListItemRenderer))
      .filter(Boolean) as JsonObject[];
    const chapters = items
      .map((r) => {
        const title = rendererText(r.title);
        const start = at(r, 'onTap', 'watchEndpoint', 'startTimeSeconds');
        return title && typeof start === 'number' ? { title, start_s: start, source } : null;
      })
      .filter((c): c is VideoChapter => c !== null);
    if (chapters.length) return chapters;
  }
  const markers = arr(
    at(
      data,
      'playerOverlays',
      'playerOverlayRenderer',
      'decoratedPlayerBarRenderer',
      'decoratedPlayerBarRenderer',
      'playerBar',
      'multiMarkersPlayerBarRenderer',
      'markersMap',
    ),
  );
  for (const m of markers) {
    const source = MARKER_KEYS[String(obj(m)?.key)];
    if (!source) continue;
    return arr(at(m, 'value', 'chapters')).flatMap((c) => {
      const chapter = obj(c, 'chapterRenderer');
      const start = chapter?.timeRangeStartMillis;
      const title = rendererText(chapter?.title);
      return typeof start === 'number' && title ? [{ title, start_s: start / 1000, source }] : [];
    });
  }
  return [];
}

/**
 * The contract's video object from a player response and/or the watch data (ytInitialData or a
 * `next` answer). Either may be null; fields the missing one would give are null.
 */
export function parseVideo(input: { player?: unknown; data?: unknown }): VideoRecord {
  const player = obj(input.player);
  const data = obj(input.data);
  const playability = player ? assertVideoAvailable(player) : null;
  const details = obj(player?.videoDetails);
  const micro = obj(at(player, 'microformat', 'playerMicroformatRenderer'));
  const contents = watchContents(data);
  const primary = obj(contents.find((c) => c.videoPrimaryInfoRenderer)?.videoPrimaryInfoRenderer);
  const secondary = obj(contents.find((c) => c.videoSecondaryInfoRenderer)?.videoSecondaryInfoRenderer);
  const owner = obj(at(secondary, 'owner', 'videoOwnerRenderer'));

  const videoId = (typeof details?.videoId === 'string' ? details.videoId : null) ?? at(data, 'currentVideoEndpoint', 'watchEndpoint', 'videoId');
  if (typeof videoId !== 'string') throw new UpstreamContractChanged('video', 'video id in videoDetails or currentVideoEndpoint');

  const ownerEndpoint = obj(at(owner, 'title', 'runs', 0, 'navigationEndpoint', 'browseEndpoint')) ?? obj(at(owner, 'navigationEndpoint', 'browseEndpoint'));
  const channelId =
    (typeof details?.channelId === 'string' ? details.channelId : null) ?? (typeof ownerEndpoint?.browseId === 'string' ? ownerEndpoint.browseId : null);
  const handleUrl =
    (typeof ownerEndpoint?.canonicalBaseUrl === 'string' ? ownerEndpoint.canonicalBaseUrl : null) ??
    (typeof micro?.ownerProfileUrl === 'string' ? micro.ownerProfileUrl : null);
  const rawHandle = handleUrl ? (/\/(@[^/?#]+)/.exec(handleUrl)?.[1] ?? null) : null;
  const handle = rawHandle ? decodeUrlPart(rawHandle) : null;
  const viewText = rendererText(at(primary, 'viewCount', 'videoViewCountRenderer', 'viewCount'));
  const like = likeButton(primary);
  const comments = panels(data).find((p) => p.panelIdentifier === 'engagement-panel-comments-section');
  const description =
    (typeof details?.shortDescription === 'string' ? details.shortDescription : null) ??
    rendererText(micro?.description) ??
    rendererText(secondary?.attributedDescription);
  const shownAboveTitle = arr(at(primary, 'superTitleLink', 'runs'))
    .map((r) => str(r, 'text')?.trim() ?? '')
    .filter((t) => t.startsWith('#'));
  // The watch page shows up to three above the title; the description states all of them.
  const hashtags = [...new Set([...shownAboveTitle, ...descriptionHashtags(description)])];

  return {
    video_id: videoId,
    title: (typeof details?.title === 'string' ? details.title : null) ?? rendererText(primary?.title),
    link: `https://www.youtube.com/watch?v=${videoId}`,
    description,
    channel: {
      name: (typeof details?.author === 'string' ? details.author : null) ?? rendererText(owner?.title),
      id: channelId,
      handle,
      link: channelId ? `https://www.youtube.com/channel/${channelId}` : null,
      verified: owner ? arr(owner.badges).some((b) => VERIFIED.test(str(b, 'metadataBadgeRenderer', 'style') ?? '')) : null,
      thumbnail: bestThumb(owner?.thumbnail),
      subscribers_text: rendererText(owner?.subscriberCountText),
    },
    views: intOf(details?.viewCount) ?? intOf(micro?.viewCount) ?? exactCount(viewText),
    views_text: viewText,
    likes: intOf(micro?.likeCount) ?? exactCount(typeof like?.accessibilityText === 'string' ? like.accessibilityText : null),
    likes_text: typeof like?.title === 'string' ? like.title : null,
    published_date: isoUtc(micro?.publishDate),
    upload_date: isoUtc(micro?.uploadDate),
    date_text: rendererText(primary?.dateText),
    relative_date_text: rendererText(primary?.relativeDateText),
    length_seconds: intOf(details?.lengthSeconds) ?? intOf(micro?.lengthSeconds),
    category: typeof micro?.category === 'string' ? micro.category : null,
    keywords: arr(details?.keywords).filter((k): k is string => typeof k === 'string'),
    hashtags,
    is_live: details ? details.isLive === true : null,
    is_live_content: bool(details?.isLiveContent),
    is_family_safe: bool(micro?.isFamilySafe),
    is_unlisted: bool(micro?.isUnlisted),
    is_private: bool(details?.isPrivate),
    age_restricted: playability ? playability.age_restricted : null,
    thumbnails: thumbs(details?.thumbnail ?? micro?.thumbnail),
    chapters: parseVideoChapters(data),
    comment_count_text: rendererText(at(comments, 'header', 'engagementPanelTitleHeaderRenderer', 'contextualInfo')),
  };
}

/** The watch page's two embedded objects; a consent or sign-in wall carries neither. */
export function extractVideoWatchData(html: string): { player: JsonObject | null; data: JsonObject | null; api_key: string | null } {
  const player = extractAssignedJson(html, 'ytInitialPlayerResponse');
  const data = extractAssignedJson(html, 'ytInitialData');
  if (!player && !data) {
    if (/consent\.youtube\.com|action="https:\/\/consent\./.test(html)) throw new UpstreamBlocked('ConsentWall', 'body:consent.');
    throw new UpstreamContractChanged('video', 'ytInitialPlayerResponse and ytInitialData');
  }
  const key = /"INNERTUBE_API_KEY"\s*:\s*"([^"]+)"/.exec(html)?.[1] ?? null;
  return { player, data, api_key: key };
}

/** The contract's video object from a watch page. */
export function parseVideoWatchPage(html: string): VideoRecord {
  return parseVideo(extractVideoWatchData(html));
}

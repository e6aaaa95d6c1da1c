import { NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, isObject, type JsonObject, obj, str, textOrNull } from '../../domain/json.js';
import { bestThumb, clockSeconds, rendererText } from './yt-json.js';
import { decodeUrlPart } from '../shared/url-text.js';

const WATCH = 'https://www.youtube.com/watch?v=';
const DURATION = /^\d+(?::\d{2}){1,2}$/;

interface VideoChannelLink {
  title: string;
  url: string;
}

interface VideoChannel {
  channel_id: string;
  title: string | null;
  handle: string | null;
  link: string;
  subscribers_text: string | null;
  video_count_text: string | null;
  description: string | null;
  keywords: string[];
  rss_url: string | null;
  is_family_safe: boolean | null;
  avatar: string | null;
  banner: string | null;
  links: VideoChannelLink[];
  more_links_text: string | null;
}

export interface VideoCardChannel {
  name: string | null;
  id: string | null;
  handle: string | null;
  link: string | null;
  thumbnail: string | null;
}

export interface VideoCard {
  position: number;
  video_id: string;
  title: string | null;
  link: string;
  channel: VideoCardChannel;
  views_text: string | null;
  published_time: string | null;
  length: string | null;
  length_seconds: number | null;
  badges: string[];
  is_live: boolean;
  thumbnail: string | null;
}

export interface VideoChannelPage {
  channel: VideoChannel | null;
  videos: VideoCard[];
  next_page_token: string | null;
}

/**
 * Throws NotFound for the answers the platform gives for an unknown or removed channel:
 * HTTP 400/404 with an error object (INVALID_ARGUMENT / NOT_FOUND), or 200 with an ERROR alert and no contents.
 */
export function assertVideoChannelExists(status: number, body: unknown): void {
  const err = obj(obj(body)?.error);
  if ((status === 400 || status === 404) && err) throw new NotFound(`channel not found (${textOrNull(err, 'status') ?? status})`);
  const root = obj(body);
  if (!root) return;
  const alert = arr(root.alerts)
    .map((a) => at(a, 'alertRenderer'))
    .find((a) => at(a, 'type') === 'ERROR');
  if (alert && !root.contents) throw new NotFound(rendererText(at(alert, 'text')) ?? 'channel not found');
}

/** `navigation/resolve_url` answer → the channel id a handle or custom URL points to. */
export function parseVideoResolveUrl(body: unknown): string | null {
  const id = at(body, 'endpoint', 'browseEndpoint', 'browseId');
  return typeof id === 'string' && id.startsWith('UC') ? id : null;
}

function handleFromUrl(u: unknown): string | null {
  if (typeof u !== 'string') return null;
  const m = /\/(@[^/?#]+)/.exec(u);
  return m ? decodeUrlPart(m[1]!) : null;
}

/** The target of a platform redirect link (`/redirect?...&q=<url>`). */
function unwrapRedirect(u: string): string {
  try {
    const url = new URL(u, 'https://www.youtube.com');
    if (url.pathname === '/redirect') return url.searchParams.get('q') ?? u;
    return url.toString();
  } catch {
    return u;
  }
}

function splitKeywords(s: string): string[] {
  return [...s.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => (m[1] ?? m[2])!);
}

function headerParts(header: JsonObject | null): unknown[] {
  return arr(at(header, 'metadata', 'contentMetadataViewModel', 'metadataRows')).flatMap((r) => arr(r, 'metadataParts'));
}

function channelMeta(data: JsonObject): VideoChannel | null {
  const meta = obj(at(data, 'metadata', 'channelMetadataRenderer'));
  const id = meta?.externalId;
  if (!meta || typeof id !== 'string') return null;
  const micro = obj(at(data, 'microformat', 'microformatDataRenderer'));
  const header = obj(at(data, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const legacy = obj(at(data, 'header', 'c4TabbedHeaderRenderer'));
  const parts = headerParts(header).map((p) => ({ text: rendererText(at(p, 'text')), label: str(p, 'accessibilityLabel') ?? '' }));
  const nonHandle = parts.filter((p) => p.text && !p.text.startsWith('@'));
  const subscribers = nonHandle.find((p) => /subscriber/i.test(`${p.text} ${p.label}`)) ?? nonHandle[0];
  const videos = nonHandle.find((p) => /\bvideos?\b/i.test(p.text ?? '')) ?? nonHandle.find((p) => p !== subscribers);

  const attribution = obj(at(header, 'attribution', 'attributionViewModel'));
  const linkTitle = rendererText(attribution?.text);
  const linkUrl = at(attribution, 'text', 'commandRuns', 0, 'onTap', 'innertubeCommand', 'urlEndpoint', 'url');
  const tags = arr(micro?.tags).filter((t): t is string => typeof t === 'string');

  return {
    channel_id: id,
    title: typeof meta.title === 'string' ? meta.title : null,
    handle: handleFromUrl(meta.vanityChannelUrl) ?? parts.find((p) => p.text?.startsWith('@'))?.text ?? rendererText(legacy?.channelHandleText),
    link: typeof meta.channelUrl === 'string' ? meta.channelUrl : `https://www.youtube.com/channel/${id}`,
    subscribers_text: subscribers?.text ?? rendererText(legacy?.subscriberCountText),
    video_count_text: videos?.text ?? rendererText(legacy?.videosCountText),
    description: typeof meta.description === 'string' ? meta.description : null,
    keywords: tags.length ? tags : typeof meta.keywords === 'string' ? splitKeywords(meta.keywords) : [],
    rss_url: typeof meta.rssUrl === 'string' ? meta.rssUrl : null,
    is_family_safe: typeof meta.isFamilySafe === 'boolean' ? meta.isFamilySafe : null,
    avatar: bestThumb(meta.avatar) ?? bestThumb(at(header, 'image', 'decoratedAvatarViewModel', 'avatar', 'avatarViewModel', 'image')),
    banner: bestThumb(at(header, 'banner', 'imageBannerViewModel', 'image')) ?? bestThumb(legacy?.banner),
    links: linkTitle && typeof linkUrl === 'string' ? [{ title: linkTitle, url: unwrapRedirect(linkUrl) }] : [],
    more_links_text: rendererText(at(attribution, 'suffix')),
  };
}

function cardChannel(c: VideoChannel | null): VideoCardChannel {
  return {
    name: c?.title ?? null,
    id: c?.channel_id ?? null,
    handle: c?.handle ?? null,
    link: c?.link ?? null,
    thumbnail: c?.avatar ?? null,
  };
}

function lockupCard(item: JsonObject, position: number, channel: VideoCardChannel): VideoCard | null {
  const lockup = obj(at(item, 'richItemRenderer', 'content', 'lockupViewModel'));
  if (lockup) {
    const id = lockup.contentId;
    if (typeof id !== 'string' || (lockup.contentType && lockup.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO')) return null;
    const md = obj(at(lockup, 'metadata', 'lockupMetadataViewModel'));
    const row = arr(at(md, 'metadata', 'contentMetadataViewModel', 'metadataRows', 0, 'metadataParts')).map((p) => rendererText(at(p, 'text')));
    const badges = arr(at(lockup, 'contentImage', 'thumbnailViewModel', 'overlays'))
      .flatMap((o) => arr(at(o, 'thumbnailBottomOverlayViewModel', 'badges')))
      .flatMap((b) => {
        const badge = obj(b, 'thumbnailBadgeViewModel');
        const text = str(badge, 'text');
        return badge && text !== null ? [{ text, style: badge.badgeStyle }] : [];
      });
    const duration = badges.find((b) => DURATION.test(b.text));
    const live = badges.some((b) => /LIVE/.test(str(b.style) ?? '') || b.text === 'LIVE');
    return {
      position,
      video_id: id,
      title: rendererText(md?.title),
      link: `${WATCH}${id}`,
      channel,
      views_text: row[0] ?? null,
      published_time: row[1] ?? null,
      length: duration?.text ?? null,
      length_seconds: clockSeconds(duration?.text),
      badges: badges.filter((b) => b !== duration).map((b) => b.text),
      is_live: live,
      thumbnail: bestThumb(at(lockup, 'contentImage', 'thumbnailViewModel', 'image')),
    };
  }
  const v = obj(at(item, 'richItemRenderer', 'content', 'videoRenderer'));
  if (!v || typeof v.videoId !== 'string') return null;
  const overlays = arr(v.thumbnailOverlays)
    .map((o) => obj(o, 'thumbnailOverlayTimeStatusRenderer'))
    .filter(isObject);
  const length = rendererText(v.lengthText);
  return {
    position,
    video_id: v.videoId,
    title: rendererText(v.title),
    link: `${WATCH}${v.videoId}`,
    channel,
    views_text: rendererText(v.viewCountText),
    published_time: rendererText(v.publishedTimeText),
    length,
    length_seconds: clockSeconds(length),
    badges: arr(v.badges)
      .map((b) => at(b, 'metadataBadgeRenderer', 'label'))
      .filter((l): l is string => typeof l === 'string'),
    is_live: overlays.some((o) => o.style === 'LIVE'),
    thumbnail: bestThumb(v.thumbnail),
  };
}

function cardsAndToken(items: unknown[], offset: number, channel: VideoCardChannel): { videos: VideoCard[]; next_page_token: string | null } {
  const videos: VideoCard[] = [];
  let next: string | null = null;
  for (const raw of items) {
    const item = obj(raw);
    if (!item) continue;
    const token = at(item, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token');
    if (typeof token === 'string') {
      next = token;
      continue;
    }
    const card = lockupCard(item, offset + videos.length + 1, channel);
    if (card) videos.push(card);
  }
  return { videos, next_page_token: next };
}

/** Channel browse answer (or the page's ytInitialData) with the Videos tab selected. */
export function parseVideoChannelPage(data: unknown): VideoChannelPage {
  const root = obj(data);
  if (!root) throw new UpstreamContractChanged('video', 'channel browse object');
  assertVideoChannelExists(200, root);
  const channel = channelMeta(root);
  if (!channel) throw new UpstreamContractChanged('video', 'channelMetadataRenderer');
  const tabs = arr(at(root, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'))
    .map((t) => obj(t, 'tabRenderer'))
    .filter(isObject);
  const videosTab =
    tabs.find((t) => t.selected === true && at(t, 'content', 'richGridRenderer')) ??
    tabs.find((t) => /\/videos$/.test(str(t, 'endpoint', 'commandMetadata', 'webCommandMetadata', 'url') ?? ''));
  const grid = arr(at(videosTab, 'content', 'richGridRenderer', 'contents'));
  const { videos, next_page_token } = cardsAndToken(grid, 0, cardChannel(channel));
  return { channel, videos, next_page_token };
}

/** A continuation answer: the next page of videos only (positions continue from `offset`). */
export function parseVideoChannelContinuation(data: unknown, context: { offset?: number; channel?: VideoCardChannel } = {}): VideoChannelPage {
  const root = obj(data);
  const actions = arr(root?.onResponseReceivedActions);
  if (!root || actions.length === 0) throw new UpstreamContractChanged('video', 'onResponseReceivedActions');
  const items = actions.flatMap((a) =>
    arr(at(a, 'appendContinuationItemsAction', 'continuationItems') ?? at(a, 'reloadContinuationItemsCommand', 'continuationItems')),
  );
  const channel = context.channel ?? cardChannel(null);
  const { videos, next_page_token } = cardsAndToken(items, context.offset ?? 0, channel);
  return { channel: null, videos, next_page_token };
}

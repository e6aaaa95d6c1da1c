import { UpstreamContractChanged } from '../../domain/errors.js';
import type { VideoCard } from './parse-channel.js';
import { arr, arrOrNull, at, isObject, type JsonObject, obj } from '../../domain/json.js';
import { bestThumb, clockSeconds, rendererText } from './yt-json.js';
import { decodeUrlPart } from '../shared/url-text.js';

export interface VideoSearchPage {
  estimated_results: number | null;
  videos: VideoCard[];
  next_page_token: string | null;
}

function searchCard(v: JsonObject, position: number): VideoCard | null {
  if (typeof v.videoId !== 'string') return null;
  const ownerRun = obj(at(v, 'ownerText', 'runs', 0)) ?? obj(at(v, 'longBylineText', 'runs', 0));
  const browse = obj(at(ownerRun, 'navigationEndpoint', 'browseEndpoint'));
  const id = typeof browse?.browseId === 'string' ? browse.browseId : null;
  const base = typeof browse?.canonicalBaseUrl === 'string' ? browse.canonicalBaseUrl : null;
  const length = rendererText(v.lengthText);
  const overlays = arr(v.thumbnailOverlays)
    .map((o) => obj(o, 'thumbnailOverlayTimeStatusRenderer'))
    .filter(isObject);
  const badges = arr(v.badges)
    .map((b) => at(b, 'metadataBadgeRenderer', 'label'))
    .filter((l): l is string => typeof l === 'string');
  return {
    position,
    video_id: v.videoId,
    title: rendererText(v.title),
    link: `https://www.youtube.com/watch?v=${v.videoId}`,
    channel: {
      name: typeof ownerRun?.text === 'string' ? ownerRun.text : null,
      id,
      handle: base?.startsWith('/@') ? decodeUrlPart(base.slice(1)) : null,
      link: id ? `https://www.youtube.com/channel/${id}` : null,
      thumbnail: bestThumb(at(v, 'channelThumbnailSupportedRenderers', 'channelThumbnailWithLinkRenderer', 'thumbnail')),
    },
    views_text: rendererText(v.viewCountText),
    published_time: rendererText(v.publishedTimeText),
    length,
    length_seconds: clockSeconds(length),
    badges,
    is_live: overlays.some((o) => o.style === 'LIVE') || badges.some((b) => /^LIVE$/i.test(b)),
    thumbnail: bestThumb(v.thumbnail),
  };
}

/** Sections of a first page, or the appended items of a continuation answer. */
function searchSections(data: unknown): unknown[] | null {
  const first = arrOrNull(data, 'contents', 'twoColumnSearchResultsRenderer', 'primaryContents', 'sectionListRenderer', 'contents');
  if (first) return first;
  const commands = at(data, 'onResponseReceivedCommands');
  if (!Array.isArray(commands)) return null;
  return commands.flatMap((c) =>
    arr(at(c, 'appendContinuationItemsAction', 'continuationItems') ?? at(c, 'reloadContinuationItemsCommand', 'continuationItems')),
  );
}

/** Innertube search answer (first page or continuation): top-level video results; shelves and ads are skipped. */
export function parseVideoSearch(data: unknown, context: { offset?: number } = {}): VideoSearchPage {
  const sections = searchSections(data);
  if (!sections) throw new UpstreamContractChanged('video', 'search sectionListRenderer');
  const videos: VideoCard[] = [];
  let next: string | null = null;
  for (const s of sections) {
    const token = at(s, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token');
    if (typeof token === 'string') next = token;
    for (const item of arr(at(s, 'itemSectionRenderer', 'contents'))) {
      const v = obj(obj(item)?.videoRenderer);
      const card = v ? searchCard(v, (context.offset ?? 0) + videos.length + 1) : null;
      if (card) videos.push(card);
    }
  }
  const est = at(data, 'estimatedResults');
  return { estimated_results: typeof est === 'string' && /^\d+$/.test(est) ? Number(est) : null, videos, next_page_token: next };
}

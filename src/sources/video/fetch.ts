import type { SourceUses } from '../context.js';
import { guards } from './guards.js';
import { BadRequest, NotFound, upstreamStatusFailure } from '../../domain/errors.js';
import type { UpstreamRequest, UpstreamResponse } from '../../upstream/client.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import {
  assertVideoChannelExists,
  parseVideoChannelContinuation,
  parseVideoChannelPage,
  parseVideoResolveUrl,
  type VideoChannelPage,
} from './parse-channel.js';
import { parseVideoSearch, type VideoSearchPage } from './parse-search.js';
import { extractVideoWatchData, parseVideoWatchPage, type VideoRecord } from './parse-video.js';
import { assertVideoAvailable, readPlayability } from './playability.js';
import {
  ANDROID_CLIENT,
  decodeVideoPageToken,
  encodeVideoPageToken,
  parseChannelInput,
  videoBrowseRequest,
  videoContinuationRequest,
  videoPlayerRequest,
  videoResolveUrlRequest,
  videoSearchRequest,
  videoTimedTextRequest,
  videoWatchPageRequest,
  type VideoRequest,
} from './requests.js';
import { parseTimedText, transcriptText, type TranscriptSegment } from './timedtext.js';
import { captionLanguage, selectTranscriptTrack, type CaptionTrack } from './transcript.js';
import { at, nonEmptyStr } from '../../domain/json.js';

/** One call's upstream traffic. */
class VideoCall {
  wire_bytes = 0;
  constructor(
    private readonly deps: SourceUses<'upstream'>,
    readonly hl: string,
    readonly gl: string,
  ) {}

  /** `reads`: a 404 that means the caller's object is gone, and error statuses read here (UpstreamRequest). */
  async send(req: VideoRequest, expect: 'json' | 'html' | 'any', reads: Pick<UpstreamRequest, 'notFound' | 'statuses'> = {}): Promise<UpstreamResponse> {
    const res = await this.deps.upstream.fetch({
      ...reads,
      source: 'video',
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
      market: this.gl.toUpperCase(),
      expect,
    });
    this.wire_bytes += res.wireBytes;
    return res;
  }
}

/** An error status the caller let through but did not read: the failure table's answer to it. */
function failIfError(res: UpstreamResponse): void {
  if (res.status >= 400) throw upstreamStatusFailure(res.status, { retryAfter: res.headers['retry-after'] })!;
}

export interface ChannelAnswer {
  page: VideoChannelPage;
  /** Our next_page_token (positions continue across pages); null on the last page. */
  next_page_token: string | null;
  wire_bytes: number;
}

/** A channel's metadata and first page of videos, or (with a page token) the next page of videos only. */
export async function fetchVideoChannel(
  deps: SourceUses<'upstream'>,
  input: { channel?: string; page_token?: string; hl: string; gl: string },
): Promise<ChannelAnswer> {
  const call = new VideoCall(deps, input.hl, input.gl);
  if (input.page_token) {
    const token = decodeVideoPageToken(input.page_token);
    const res = await call.send(videoContinuationRequest(token.token, call.hl, call.gl), 'json', { statuses: [400] });
    if (res.status === 400) throw new BadRequest('invalid page_token');
    failIfError(res);
    const channel = {
      name: null,
      id: token.channel_id,
      handle: null,
      link: token.channel_id ? `https://www.youtube.com/channel/${token.channel_id}` : null,
      thumbnail: null,
    };
    const page = await withContractGuard('video', res, (r) => parseVideoChannelContinuation(r.json(), { offset: token.offset, channel }), {
      rule: guards.drift.channel_videos,
    });
    return { page, next_page_token: nextToken(page.next_page_token, token.offset + page.videos.length, token.channel_id), wire_bytes: call.wire_bytes };
  }
  const ref = parseChannelInput(input.channel ?? '');
  let channelId: string;
  if (ref.kind === 'id') channelId = ref.id;
  else {
    const res = await call.send(videoResolveUrlRequest(ref, call.hl, call.gl), 'json', { notFound: 'channel not found', statuses: [400] });
    if (res.status === 400) throw new NotFound('channel not found');
    failIfError(res);
    const id = await withContractGuard('video', res, (r) => parseVideoResolveUrl(r.json()));
    if (!id) throw new NotFound('channel not found');
    channelId = id;
  }
  const res = await call.send(videoBrowseRequest(channelId, call.hl, call.gl), 'json', { statuses: [400, 404] });
  if (res.status === 400 || res.status === 404) assertVideoChannelExists(res.status, res.json());
  failIfError(res);
  const page = await withContractGuard('video', res, (r) => parseVideoChannelPage(r.json()), { rule: guards.drift.channel_videos });
  const id = page.channel?.channel_id ?? channelId;
  return { page, next_page_token: nextToken(page.next_page_token, page.videos.length, id), wire_bytes: call.wire_bytes };
}

function nextToken(upstream: string | null, offset: number, channelId: string | null): string | null {
  return upstream ? encodeVideoPageToken({ token: upstream, offset, channel_id: channelId }) : null;
}

/** The video object from its watch page (player response and watch data in one request). */
export async function fetchVideo(
  deps: SourceUses<'upstream'>,
  input: { video_id: string; hl: string; gl: string },
): Promise<{ video: VideoRecord; wire_bytes: number }> {
  const call = new VideoCall(deps, input.hl, input.gl);
  const res = await call.send(videoWatchPageRequest(input.video_id, call.hl, call.gl), 'html', { notFound: 'video not found' });
  failIfError(res);
  const video = await withContractGuard('video', res, (r) => parseVideoWatchPage(r.text()));
  return { video, wire_bytes: call.wire_bytes };
}

export interface TranscriptAnswer {
  video: { video_id: string; title: string | null; channel_id: string | null; author: string | null; length_seconds: number | null };
  language: Omit<CaptionTrack, 'base_url'>;
  available_languages: Omit<CaptionTrack, 'base_url'>[];
  segments: TranscriptSegment[];
  text: string;
  client: string;
  wire_bytes: number;
}

function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
}

/**
 * Watch page (availability, innertube key) → player answer of the app client (its caption URLs
 * need no web session) → the chosen track's timedtext in json3.
 */
export async function fetchTranscript(
  deps: SourceUses<'upstream'>,
  input: { video_id: string; lang?: string; hl: string; gl: string },
): Promise<TranscriptAnswer> {
  const call = new VideoCall(deps, input.hl, input.gl);
  const page = await call.send(videoWatchPageRequest(input.video_id, call.hl, call.gl), 'html', { notFound: 'video not found' });
  failIfError(page);
  const watch = await withContractGuard('video', page, (r) => extractVideoWatchData(r.text()));
  if (watch.player) {
    if (readPlayability(watch.player)?.age_restricted) throw new NotFound('transcript not available: the video is age-restricted');
    assertVideoAvailable(watch.player);
  }

  const res = await call.send(videoPlayerRequest(input.video_id, watch.api_key, call.hl, call.gl), 'json');
  failIfError(res);
  const player = await withContractGuard('video', res, (r) => r.json());
  const playability = readPlayability(player);
  if (!playability?.age_restricted) assertVideoAvailable(player);
  const { track, tracks } = selectTranscriptTrack(player, input.lang);

  const tt = await call.send(videoTimedTextRequest(track.base_url), 'any', { notFound: `transcript track ${track.code} is no longer available` });
  failIfError(tt);
  const segments = await withContractGuard('video', tt, (r) => parseTimedText(r.text()));
  const details = at(player, 'videoDetails') ?? at(watch.player, 'videoDetails');
  return {
    video: {
      video_id: nonEmptyStr(details, 'videoId') ?? input.video_id,
      title: nonEmptyStr(details, 'title'),
      channel_id: nonEmptyStr(details, 'channelId'),
      author: nonEmptyStr(details, 'author'),
      length_seconds: int(at(details, 'lengthSeconds')),
    },
    language: captionLanguage(track),
    available_languages: tracks.map(captionLanguage),
    segments,
    text: transcriptText(segments),
    client: ANDROID_CLIENT.clientName,
    wire_bytes: call.wire_bytes,
  };
}

export interface SearchAnswer {
  page: VideoSearchPage;
  next_page_token: string | null;
  wire_bytes: number;
}

/** One page of video results for a query, or the page a previous next_page_token points to. */
export async function fetchVideoSearch(deps: SourceUses<'upstream'>, input: { q: string; page_token?: string; hl: string; gl: string }): Promise<SearchAnswer> {
  const call = new VideoCall(deps, input.hl, input.gl);
  const token = input.page_token ? decodeVideoPageToken(input.page_token) : null;
  const res = await call.send(videoSearchRequest(token ? { continuation: token.token } : { query: input.q }, call.hl, call.gl), 'json', {
    statuses: token ? [400] : [],
  });
  if (res.status === 400 && token) throw new BadRequest('invalid page_token');
  failIfError(res);
  const offset = token?.offset ?? 0;
  const page = await withContractGuard('video', res, (r) => parseVideoSearch(r.json(), { offset }), { rule: guards.drift.search });
  return { page, next_page_token: nextToken(page.next_page_token, offset + page.videos.length, null), wire_bytes: call.wire_bytes };
}

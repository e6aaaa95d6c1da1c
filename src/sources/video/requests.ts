import { BadRequest, InvalidInput } from '../../domain/errors.js';
import { decodeUrlPart } from '../shared/url-text.js';

/** A request relative to the video base URL. */
export interface VideoRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Browse params that select a channel's Videos tab. */
const VIDEOS_TAB_PARAMS = 'EgZ2aWRlb3PyBgQKAjoA';
/** Web client as recorded in the fixtures; the upstream client may override it. */
const WEB_CLIENT = { clientName: 'WEB', clientVersion: '2.20260519.10.00' } as const;
/** The client the transcript player request uses (its caption URLs need no web session). */
export const ANDROID_CLIENT = { clientName: 'ANDROID', clientVersion: '20.10.38' } as const;
/** Consent cookie that skips the EU consent interstitial. */
const CONSENT_COOKIE = { cookie: 'SOCS=CAE=' };
const JSON_POST = { 'content-type': 'application/json', ...CONSENT_COOKIE };

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const HANDLE = /^@[\p{L}\p{N}._-]{1,100}$/u;

/** The 11-character id from an id or a watch, short-link, shorts, embed or live URL. */
export function parseVideoIdInput(raw: string): string {
  const s = raw.trim();
  if (VIDEO_ID.test(s)) return s;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    throw new InvalidInput('video_id must be an 11-character id or a video URL');
  }
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = url.pathname.split('/')[1] ?? null;
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id = url.searchParams.get('v') ?? /^\/(?:shorts|embed|live|v|e)\/([^/?#]+)/.exec(url.pathname)?.[1] ?? null;
  }
  if (!id || !VIDEO_ID.test(id)) throw new InvalidInput('video_id must be an 11-character id or a video URL');
  return id;
}

export type ChannelRef = { kind: 'id'; id: string } | { kind: 'handle'; handle: string } | { kind: 'path'; path: string };

/** A channel given as @handle, UC… id or channel URL (/channel/, /@handle, /c/, /user/). */
export function parseChannelInput(raw: string): ChannelRef {
  const s = raw.trim();
  if (CHANNEL_ID.test(s)) return { kind: 'id', id: s };
  if (HANDLE.test(s)) return { kind: 'handle', handle: s };
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    throw new InvalidInput('channel must be an @handle, a channel id beginning UC, or a channel URL');
  }
  if (!/(^|\.)youtube\.com$/i.test(url.hostname)) throw new InvalidInput('channel URL must be on the video platform');
  const parts = url.pathname.split('/').filter(Boolean).map(decodeUrlPart);
  if (parts[0] === 'channel' && parts[1] && CHANNEL_ID.test(parts[1])) return { kind: 'id', id: parts[1] };
  if (parts[0]?.startsWith('@') && HANDLE.test(parts[0])) return { kind: 'handle', handle: parts[0] };
  if ((parts[0] === 'c' || parts[0] === 'user') && parts[1]) return { kind: 'path', path: `/${parts[0]}/${encodeURIComponent(parts[1])}` };
  throw new InvalidInput('channel must be an @handle, a channel id beginning UC, or a channel URL');
}

function locale(hl: string, gl: string): string {
  return `hl=${encodeURIComponent(hl)}&gl=${encodeURIComponent(gl.toUpperCase())}`;
}

function context(client: { clientName: string; clientVersion: string }, hl: string, gl: string) {
  return { client: { ...client, hl, gl: gl.toUpperCase() } };
}

function channelPath(ref: ChannelRef): string {
  if (ref.kind === 'id') return `/channel/${ref.id}`;
  if (ref.kind === 'handle') return `/${encodeURIComponent(ref.handle).replace(/^%40/, '@')}`;
  return ref.path;
}

/** Innertube browse of a channel id's Videos tab. */
export function videoBrowseRequest(channelId: string, hl = 'en', gl = 'US'): VideoRequest {
  return {
    method: 'POST',
    path: '/youtubei/v1/browse?prettyPrint=false',
    headers: JSON_POST,
    body: JSON.stringify({ context: context(WEB_CLIENT, hl, gl), browseId: channelId, params: VIDEOS_TAB_PARAMS }),
  };
}

/** Innertube browse continuation (the next page of videos). */
export function videoContinuationRequest(token: string, hl = 'en', gl = 'US'): VideoRequest {
  return {
    method: 'POST',
    path: '/youtubei/v1/browse?prettyPrint=false',
    headers: JSON_POST,
    body: JSON.stringify({ context: context(WEB_CLIENT, hl, gl), continuation: token }),
  };
}

/** Resolves a handle or custom channel URL to its channel id. */
export function videoResolveUrlRequest(ref: ChannelRef, hl = 'en', gl = 'US'): VideoRequest {
  return {
    method: 'POST',
    path: '/youtubei/v1/navigation/resolve_url?prettyPrint=false',
    headers: JSON_POST,
    body: JSON.stringify({ context: context(WEB_CLIENT, hl, gl), url: `https://www.youtube.com${channelPath(ref)}` }),
  };
}

/** Search filter params (type: video) that keep video results only. */
const VIDEO_SEARCH_VIDEOS_FILTER = 'EgIQAQ==';

/** Innertube search: a query (first page) or a continuation token (next page). */
export function videoSearchRequest(input: { query?: string; continuation?: string }, hl = 'en', gl = 'US'): VideoRequest {
  const body = input.continuation
    ? { context: context(WEB_CLIENT, hl, gl), continuation: input.continuation }
    : { context: context(WEB_CLIENT, hl, gl), query: input.query ?? '', params: VIDEO_SEARCH_VIDEOS_FILTER };
  return { method: 'POST', path: '/youtubei/v1/search?prettyPrint=false', headers: JSON_POST, body: JSON.stringify(body) };
}

/** The watch page: ytInitialPlayerResponse, ytInitialData and the innertube API key. */
export function videoWatchPageRequest(videoId: string, hl = 'en', gl = 'US'): VideoRequest {
  return { method: 'GET', path: `/watch?v=${encodeURIComponent(videoId)}&${locale(hl, gl)}`, headers: CONSENT_COOKIE };
}

/** Innertube player for the caption track list (the key comes from the watch page). */
export function videoPlayerRequest(videoId: string, apiKey: string | null, hl = 'en', gl = 'US'): VideoRequest {
  const key = apiKey ? `key=${encodeURIComponent(apiKey)}&` : '';
  return {
    method: 'POST',
    path: `/youtubei/v1/player?${key}prettyPrint=false`,
    headers: JSON_POST,
    body: JSON.stringify({ context: context(ANDROID_CLIENT, hl, gl), videoId }),
  };
}

/** A track's timedtext URL in json3, as a path on the video host. */
export function videoTimedTextRequest(baseUrl: string): VideoRequest {
  const url = new URL(baseUrl, 'https://www.youtube.com');
  url.searchParams.set('fmt', 'json3');
  return { method: 'GET', path: `${url.pathname}${url.search}` };
}

/** What our next_page_token carries besides the upstream continuation token. */
export interface VideoPageToken {
  token: string;
  /** Videos already returned, so positions continue. */
  offset: number;
  channel_id: string | null;
}

export function encodeVideoPageToken(t: VideoPageToken): string {
  return Buffer.from(JSON.stringify({ t: t.token, o: t.offset, c: t.channel_id }), 'utf8').toString('base64url');
}

export function decodeVideoPageToken(s: string): VideoPageToken {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { t?: unknown; o?: unknown; c?: unknown };
    if (typeof v.t === 'string' && v.t !== '' && typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) {
      return { token: v.t, offset: v.o, channel_id: typeof v.c === 'string' ? v.c : null };
    }
  } catch {
    // fall through to the 400
  }
  throw new BadRequest('invalid page_token');
}

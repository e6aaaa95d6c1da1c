import { z } from 'zod';
import { InvalidInput } from '../src/domain/errors.js';
import { defineTool } from '../src/core/define-tool.js';
import { CACHE_FIELD } from '../src/core/result-cache.js';
import { fetchTranscript, fetchVideo, fetchVideoChannel, fetchVideoSearch } from '../src/sources/video/fetch.js';
import { parseVideoIdInput } from '../src/sources/video/requests.js';
import { elapsedSince, glField, hlField, WebMeta } from './webdata-schemas.js';

const ns = z.string().nullable();

const VideoCard = z.object({
  position: z.int(),
  video_id: z.string(),
  title: ns,
  link: z.string(),
  channel: z.object({ name: ns, id: ns, handle: ns, link: ns, thumbnail: ns }),
  views_text: ns,
  published_time: ns,
  length: ns,
  length_seconds: z.number().nullable(),
  badges: z.array(z.string()),
  is_live: z.boolean(),
  thumbnail: ns,
});

const VideoChannel = z.object({
  channel_id: z.string(),
  title: ns,
  handle: ns,
  link: z.string(),
  subscribers_text: ns,
  video_count_text: ns,
  description: ns,
  keywords: z.array(z.string()),
  rss_url: ns,
  is_family_safe: z.boolean().nullable(),
  avatar: ns,
  banner: ns,
  links: z.array(z.object({ title: z.string(), url: z.string() })),
  more_links_text: ns,
});

const videoIdField = z.string().min(11).max(300).describe('The video: its 11-character id or its URL.');

export const getVideoChannel = defineTool({
  name: 'get_video_channel',
  title: 'Video channel and its latest videos',
  description:
    "A video-platform channel's metadata (title, handle, subscribers and video count text, description, links, avatar, banner) plus its Videos tab, newest first, about 30 per page. Send channel (@handle, a UC… channel id or a channel URL); for the next page send the answer's next_page_token as page_token (the answer is then videos only, channel null). Costs 2 credits; an empty next page, an unknown channel (404) and failures are free. Video ids feed get_video and get_video_transcript.",
  method: 'POST',
  path: '/v1/video/channel',
  tags: ['video'],
  input: z.strictObject({
    channel: z.string().min(3).max(300).optional().describe('The channel: its @handle, its UC… id or its URL.'),
    page_token: z.string().max(4000).optional().describe('next_page_token of the previous page, for the next page.'),
    hl: hlField,
    gl: glField,
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('video_channel'), channel: ns, hl: z.string(), gl: z.string() }),
    channel: VideoChannel.nullable(),
    videos: z.array(VideoCard),
    next_page_token: ns,
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'listings',
  isEmpty: (o) => o.channel === null && o.videos.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    if (!input.channel && !input.page_token) throw new InvalidInput('send channel, or page_token for the next page');
    const answer = await fetchVideoChannel(deps, input);
    return {
      search_parameters: { engine: 'video_channel' as const, channel: input.page_token ? null : (input.channel ?? null), hl: input.hl, gl: input.gl },
      channel: answer.page.channel,
      videos: answer.page.videos,
      next_page_token: answer.next_page_token,
      meta: { source: 'video', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

const Video = z.object({
  video_id: z.string(),
  title: ns,
  link: z.string(),
  description: ns,
  channel: z.object({ name: ns, id: ns, handle: ns, link: ns, verified: z.boolean().nullable(), thumbnail: ns, subscribers_text: ns }),
  views: z.number().nullable(),
  views_text: ns,
  likes: z.number().nullable(),
  likes_text: ns,
  published_date: ns,
  upload_date: ns,
  date_text: ns,
  relative_date_text: ns,
  length_seconds: z.number().nullable(),
  category: ns,
  keywords: z.array(z.string()),
  hashtags: z.array(z.string()),
  is_live: z.boolean().nullable(),
  is_live_content: z.boolean().nullable(),
  is_family_safe: z.boolean().nullable(),
  is_unlisted: z.boolean().nullable(),
  is_private: z.boolean().nullable(),
  age_restricted: z.boolean().nullable(),
  thumbnails: z.array(z.object({ url: z.string(), width: z.number().nullable(), height: z.number().nullable() })),
  chapters: z.array(z.object({ title: z.string(), start_s: z.number(), source: z.enum(['creator-made', 'auto-generated']) })),
  comment_count_text: ns,
});

export const getVideo = defineTool({
  name: 'get_video',
  title: 'Video metadata',
  description:
    'Metadata of one video: title, description, channel (with verified and subscribers text), exact views and likes, publish and upload dates, length, category, keywords, hashtags, live/unlisted/private/age flags, thumbnails, chapters (creator-made or auto-generated) and the comment count text. video_id is the 11-character id or a watch, short-link, shorts, embed or live URL. Costs 1 credit (our choice: the spec shows none); a removed, private or nonexistent video (404) and failures are free. An age-gated video answers its metadata with age_restricted true.',
  method: 'POST',
  path: '/v1/video/video',
  tags: ['video'],
  input: z.strictObject({ video_id: videoIdField, hl: hlField, gl: glField, ...CACHE_FIELD }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('video_video'), video_id: z.string(), hl: z.string(), gl: z.string() }),
    video: Video,
    meta: WebMeta,
  }),
  credits: 1,
  cache: 'details',
  async handler(input, { deps }) {
    const started = performance.now();
    const videoId = parseVideoIdInput(input.video_id);
    const { video, wire_bytes } = await fetchVideo(deps, { video_id: videoId, hl: input.hl, gl: input.gl });
    return {
      search_parameters: { engine: 'video_video' as const, video_id: videoId, hl: input.hl, gl: input.gl },
      video,
      meta: { source: 'video', wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

const Language = z.object({ code: z.string(), name: ns, kind: z.enum(['manual', 'asr']), translatable: z.boolean(), is_default: z.boolean() });

export const getVideoTranscript = defineTool({
  name: 'get_video_transcript',
  title: 'Video transcript',
  description:
    'The captions of one video as timed segments and joined text. lang picks the track (creator captions win over auto-generated; a base code such as en also matches en-GB); without it English when present, else the default track. available_languages lists every track; machine translation is not offered. Costs 1 credit (our choice: the spec shows none); no captions, no track in lang (the 404 lists the available ones), an age-gated video (a 404 that says so), an empty transcript and failures are free. Get video ids from get_video_channel or search_videos.',
  method: 'POST',
  path: '/v1/video/transcript',
  tags: ['video'],
  input: z.strictObject({
    video_id: videoIdField,
    lang: z
      .string()
      .min(2)
      .max(20)
      .regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, 'Input should be a language code such as en or pt-BR')
      .optional()
      .describe('Language of the transcript track, e.g. en or pt-BR; the default track when absent.'),
    hl: hlField,
    gl: glField,
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('video_transcript'), video_id: z.string(), lang: ns, hl: z.string(), gl: z.string() }),
    video: z.object({ video_id: z.string(), title: ns, channel_id: ns, author: ns, length_seconds: z.number().nullable() }),
    language: Language,
    available_languages: z.array(Language),
    segments: z.array(z.object({ start_s: z.number(), duration_s: z.number().nullable(), text: z.string() })),
    text: z.string(),
    meta: WebMeta.extend({ client: z.string() }),
  }),
  credits: 1,
  cache: 'details',
  isEmpty: (o) => o.segments.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const videoId = parseVideoIdInput(input.video_id);
    const t = await fetchTranscript(deps, { video_id: videoId, lang: input.lang, hl: input.hl, gl: input.gl });
    return {
      search_parameters: { engine: 'video_transcript' as const, video_id: videoId, lang: input.lang ?? null, hl: input.hl, gl: input.gl },
      video: t.video,
      language: t.language,
      available_languages: t.available_languages,
      segments: t.segments,
      text: t.text,
      meta: { source: 'video', client: t.client, wire_bytes: t.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const searchVideos = defineTool({
  name: 'search_videos',
  title: 'Search videos',
  description:
    "One page of video results (about 20) for a query on the video platform: id, title, channel, views and published text, length. For the next page send the same q with the answer's next_page_token as page_token. Costs 2 credits per non-empty page (our choice: the spec shows none); an empty page and failures are free. Feeds get_video and get_video_transcript.",
  method: 'POST',
  path: '/v1/video/search',
  tags: ['video'],
  input: z.strictObject({
    q: z.string().min(1).max(200).describe('Search words, as typed on the site.'),
    page_token: z.string().max(4000).optional().describe('next_page_token of the previous page, for the next page.'),
    hl: hlField,
    gl: glField,
    ...CACHE_FIELD,
  }),
  output: z.object({
    search_parameters: z.object({ engine: z.literal('video_search'), q: z.string(), hl: z.string(), gl: z.string() }),
    estimated_results: z.number().nullable(),
    videos: z.array(VideoCard),
    next_page_token: ns,
    meta: WebMeta,
  }),
  credits: 2,
  cache: 'listings',
  isEmpty: (o) => o.videos.length === 0,
  async handler(input, { deps }) {
    const started = performance.now();
    const answer = await fetchVideoSearch(deps, input);
    return {
      search_parameters: { engine: 'video_search' as const, q: input.q, hl: input.hl, gl: input.gl },
      estimated_results: answer.page.estimated_results,
      videos: answer.page.videos,
      next_page_token: answer.next_page_token,
      meta: { source: 'video', wire_bytes: answer.wire_bytes, elapsed_s: elapsedSince(started) },
    };
  },
});

export const VIDEO_TOOLS = [getVideoChannel, getVideo, getVideoTranscript, searchVideos];

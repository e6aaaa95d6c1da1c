import * as cheerio from 'cheerio';
import { UpstreamContractChanged, UpstreamFailed } from '../../domain/errors.js';
import { arr, type JsonObject, obj, str } from '../../domain/json.js';

export interface TranscriptSegment {
  start_s: number;
  duration_s: number | null;
  text: string;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes character references left in caption text (srv1 double-escapes them). */
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}

/** Line breaks become spaces, markup and repeated spaces go. */
function clean(s: string): string {
  return decodeEntities(s)
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\u2028]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function ms(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** fmt=json3: `{wireMagic:"pb3", events:[{tStartMs, dDurationMs, segs:[{utf8}]}]}`; window events carry no segs. */
function parseJson3(body: string): TranscriptSegment[] {
  let root: JsonObject | null;
  try {
    root = obj(JSON.parse(body));
  } catch {
    throw new UpstreamContractChanged('video', 'timedtext json3 body');
  }
  if (!root || !Array.isArray(root.events)) throw new UpstreamContractChanged('video', 'timedtext json3 events');
  const out: TranscriptSegment[] = [];
  for (const e of root.events) {
    const ev = obj(e);
    const start = ms(ev?.tStartMs);
    if (!ev || start === null || !Array.isArray(ev.segs)) continue;
    const t = clean(
      arr(ev.segs)
        .map((s) => str(s, 'utf8') ?? '')
        .join(''),
    );
    if (!t) continue;
    const d = ms(ev.dDurationMs);
    out.push({ start_s: round3(start / 1000), duration_s: d === null ? null : round3(d / 1000), text: t });
  }
  return out;
}

/** fmt=srv3 (`<timedtext format="3"><body><p t d>…<s>…</s></p>`) and the default `<transcript><text start dur>`. */
function parseXml(body: string): TranscriptSegment[] {
  const $ = cheerio.load(body, { xml: true });
  const out: TranscriptSegment[] = [];
  const srv3 = $('timedtext body p');
  if (srv3.length) {
    srv3.each((_, el) => {
      const start = ms($(el).attr('t'));
      const t = clean($(el).text());
      if (start === null || !t) return;
      const d = ms($(el).attr('d'));
      out.push({ start_s: round3(start / 1000), duration_s: d === null ? null : round3(d / 1000), text: t });
    });
    return out;
  }
  const srv1 = $('transcript text');
  if (!srv1.length && !$('transcript').length && !$('timedtext').length) throw new UpstreamContractChanged('video', 'timedtext xml elements');
  srv1.each((_, el) => {
    const start = ms($(el).attr('start'));
    const t = clean($(el).text());
    if (start === null || !t) return;
    const d = ms($(el).attr('dur'));
    out.push({ start_s: round3(start), duration_s: d === null ? null : round3(d), text: t });
  });
  return out;
}

/** Caption cues of a timedtext answer (json3, srv3 or the default XML); empty cues are dropped. */
export function parseTimedText(body: string): TranscriptSegment[] {
  const trimmed = body.trim();
  // Without a valid proof-of-origin token the platform answers 200 with an empty body.
  if (trimmed === '') throw new UpstreamFailed('EmptyTimedText');
  return trimmed.startsWith('{') ? parseJson3(trimmed) : parseXml(trimmed);
}

/** The transcript's joined text. */
export function transcriptText(segments: TranscriptSegment[]): string {
  return segments.map((s) => s.text).join(' ');
}

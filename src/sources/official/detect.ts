/**
 * Detects a hotel website's own booking engine from its HTML and the URLs it loads. Hosts are
 * matched on the URL's host name only (never on the whole URL, whose query may carry another
 * site's address), and the strongest kind of evidence wins: a booking link or frame beats a
 * script, which beats a widget global or a cookie.
 */
import * as cheerio from 'cheerio';
import { OFFICIAL_ENGINES, type EngineSpec, type IdRule } from './engines.js';

type EvidenceKind = 'link' | 'frame' | 'form' | 'inline_url' | 'request' | 'script_src' | 'dom' | 'vendor_home' | 'js_global' | 'cookie';

const WEIGHT: Record<EvidenceKind, number> = {
  link: 5,
  frame: 5,
  form: 5,
  inline_url: 4,
  request: 4,
  script_src: 3,
  dom: 3,
  vendor_home: 2,
  js_global: 2,
  cookie: 1,
};

/** Kinds whose URL a guest can open to book. */
const BOOKABLE: ReadonlySet<EvidenceKind> = new Set(['link', 'frame', 'form', 'inline_url', 'request']);

export interface DetectInput {
  html: string;
  /** Address of the page, to resolve relative links. */
  pageUrl?: string;
  /** URLs the page requested when rendered (scripts, frames, XHR). */
  urls?: string[];
  /** Cookie names set while loading the page. */
  cookies?: string[];
}

interface Evidence {
  kind: EvidenceKind;
  value: string;
}

export interface OfficialEngineMatch {
  engine: string;
  name: string;
  booking_url: string | null;
  hotel_id: string | null;
  chain_id: string | null;
  confidence: number;
  evidence: Evidence[];
}

interface Found {
  kind: EvidenceKind;
  url: URL;
}

const INLINE_URL = /https?:\/\/[^\s"'<>\\`)]+/g;

function toUrl(raw: string | undefined, base?: string): URL | null {
  if (!raw) return null;
  const v = raw.trim().replace(/&amp;/g, '&');
  if (!v || /^(javascript|mailto|tel|data):/i.test(v) || v.startsWith('#')) return null;
  try {
    const u = base ? new URL(v, base) : new URL(v);
    return /^https?:$/.test(u.protocol) ? u : null;
  } catch {
    return null;
  }
}

function hostMatches(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

function collect($: cheerio.CheerioAPI, input: DetectInput): { urls: Found[]; scripts: URL[]; inline: string } {
  const urls: Found[] = [];
  const push = (kind: EvidenceKind, raw: string | undefined) => {
    const u = toUrl(raw, input.pageUrl);
    if (u) urls.push({ kind, url: u });
  };
  $('a[href], area[href]').each((_, el) => push('link', $(el).attr('href')));
  $('iframe[src]').each((_, el) => push('frame', $(el).attr('src')));
  $('form[action]').each((_, el) => push('form', $(el).attr('action')));
  const scripts: URL[] = [];
  $('script[src]').each((_, el) => {
    const u = toUrl($(el).attr('src'), input.pageUrl);
    if (u) scripts.push(u);
  });
  const inline = $('script:not([src])')
    .map((_, el) => $(el).text())
    .get()
    .join('\n');
  for (const m of inline.matchAll(INLINE_URL)) push('inline_url', m[0]);
  for (const raw of input.urls ?? []) {
    const u = toUrl(raw);
    if (!u) continue;
    if (/\.js(\?|$)/i.test(u.pathname + u.search)) scripts.push(u);
    else urls.push({ kind: 'request', url: u });
  }
  return { urls, scripts, inline };
}

function param(u: URL, name: string): string | null {
  for (const [k, v] of u.searchParams) if (k.toLowerCase() === name.toLowerCase() && v.trim()) return v.trim();
  return null;
}

function idFrom(u: URL, spec: EngineSpec): string | null {
  for (const rule of spec.ids ?? []) {
    if (!ruleApplies(rule, u)) continue;
    if (rule.query) {
      const v = param(u, rule.query);
      if (v) return v;
    }
    for (const [re, part] of [
      [rule.path, u.pathname],
      [rule.hash, u.hash],
    ] as const) {
      const m = re?.exec(part);
      if (m?.[1]) return m[1];
    }
    if (rule.subdomain) {
      const labels = u.hostname.toLowerCase().split('.');
      const base = spec.hosts.find((d) => hostMatches(u.hostname, [d]));
      if (base && labels.length > base.split('.').length && labels[0] !== 'www') return labels[0] ?? null;
    }
  }
  return null;
}

function isVendorHome(u: URL, spec: EngineSpec): boolean {
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  return spec.hosts.includes(host) && (u.pathname === '/' || u.pathname === '') && !idFrom(u, spec);
}

function ruleApplies(rule: IdRule, u: URL): boolean {
  return !rule.hosts || hostMatches(u.hostname, rule.hosts);
}

function matchEngine(spec: EngineSpec, $: cheerio.CheerioAPI, seen: ReturnType<typeof collect>, cookies: string[]): OfficialEngineMatch | null {
  const evidence: Evidence[] = [];
  let best = 0;
  let bookingUrl: URL | null = null;
  let bookingWithId: URL | null = null;
  const note = (kind: EvidenceKind, value: string) => {
    evidence.push({ kind, value });
    best = Math.max(best, WEIGHT[kind]);
  };
  for (const f of seen.urls) {
    if (!hostMatches(f.url.hostname, spec.hosts)) continue;
    // A "powered by" link to the vendor's home page names the engine but books nothing.
    if (isVendorHome(f.url, spec)) {
      note('vendor_home', f.url.href);
      continue;
    }
    note(f.kind, f.url.href);
    if (BOOKABLE.has(f.kind)) {
      bookingUrl ??= f.url;
      if (!bookingWithId && idFrom(f.url, spec)) bookingWithId = f.url;
    }
  }
  for (const s of seen.scripts) {
    if (hostMatches(s.hostname, spec.hosts) || spec.scriptSrc?.some((re) => re.test(s.href))) note('script_src', s.href);
  }
  for (const sel of spec.dom ?? []) if ($(sel).length > 0) note('dom', sel);
  for (const re of spec.globals ?? []) {
    const m = re.exec(seen.inline);
    if (m) note('js_global', m[0]);
  }
  for (const c of spec.cookies ?? []) if (cookies.includes(c)) note('cookie', c);
  let inlineId: string | null = null;
  for (const re of spec.inlineIds ?? []) {
    const m = re.exec(seen.inline);
    if (m?.[1]) {
      note('js_global', m[0].slice(0, 200));
      inlineId ??= m[1];
    }
  }
  for (const { selector, attr, pattern } of spec.attrIds ?? []) {
    const value = $(selector).first().attr(attr)?.trim();
    if (value && pattern.test(value)) {
      note('dom', `${selector.replace(/\[[^\]]*\]$/, '')}[${attr}="${value}"]`);
      inlineId ??= value;
    }
  }
  if (!evidence.length) return null;
  const chosen: URL | null = bookingWithId ?? bookingUrl;
  return {
    engine: spec.id,
    name: spec.name,
    booking_url: chosen ? chosen.href : null,
    hotel_id: (chosen ? idFrom(chosen, spec) : null) ?? inlineId,
    chain_id: chosen && spec.chainQuery ? param(chosen, spec.chainQuery) : null,
    confidence: best / WEIGHT.link,
    // strongest first; a stable sort keeps page order within a kind
    evidence: evidence.sort((a, b) => WEIGHT[b.kind] - WEIGHT[a.kind]),
  };
}

/** Every engine with evidence on the page, strongest first. */
export function detectOfficialEngines(input: DetectInput): OfficialEngineMatch[] {
  const $ = cheerio.load(input.html ?? '');
  const seen = collect($, input);
  const cookies = (input.cookies ?? []).map((c) => c.trim());
  const out: OfficialEngineMatch[] = [];
  for (const spec of OFFICIAL_ENGINES) {
    const m = matchEngine(spec, $, seen, cookies);
    if (m) out.push(m);
  }
  return out.sort((a, b) => b.confidence - a.confidence || Number(b.hotel_id != null) - Number(a.hotel_id != null));
}

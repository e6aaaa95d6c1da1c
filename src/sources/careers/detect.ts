import * as cheerio from 'cheerio';
import type { CareersAts, CareersBoard } from './types.js';
import { decodeUrlPart } from '../shared/url-text.js';

/** Path segments that are never a company token on the shared hosts. */
const RESERVED = new Set([
  'embed',
  'api',
  'v0',
  'v1',
  'j',
  'jobs',
  'job',
  'static',
  'assets',
  'favicon.ico',
  'robots.txt',
  'careers',
  'search',
  'wday',
  'cxs',
  'o',
  'oauth',
  'login',
  'en',
  'fr',
  'de',
  'es',
]);
/** Subdomains of a system's own domain that are infrastructure, not a company. */
const RESERVED_SUBDOMAINS = new Set([
  'www',
  'api',
  'app',
  'apply',
  'jobs',
  'careers',
  'career',
  'static',
  'assets',
  'cdn',
  'help',
  'support',
  'status',
  'blog',
  'docs',
]);
const LOCALE_SEGMENT = /^[a-z]{2}(?:-[A-Za-z]{2})?$/;
const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function seg(url: URL): string[] {
  return url.pathname.split('/').filter(Boolean).map(decodeUrlPart);
}

function token(v: string | null | undefined): string | null {
  if (!v || !TOKEN.test(v) || RESERVED.has(v.toLowerCase())) return null;
  return v;
}

function board(ats: CareersAts, b: string, board_url: string, extra: Partial<CareersBoard> = {}): CareersBoard {
  return { ats, board: b, board_url, ...extra };
}

type Rule = (url: URL, host: string, parts: string[]) => CareersBoard | null;

/** URL shapes per system; each returns the board a URL names, or null. */
const RULES: Rule[] = [
  // Greenhouse: boards.greenhouse.io/<t>, job-boards(.eu).greenhouse.io/<t>, embeds (?for=<t>), the boards API.
  (url, host, parts) => {
    if (!/(^|\.)greenhouse\.io$/.test(host)) return null;
    const eu = /\.eu\.greenhouse\.io$/.test(host);
    let t: string | null = null;
    if (host.startsWith('boards-api.')) t = parts[0] === 'v1' && parts[1] === 'boards' ? token(parts[2]) : null;
    else if (/^(job-)?boards(\.eu)?\.greenhouse\.io$/.test(host)) t = token(url.searchParams.get('for')) ?? token(parts[0]);
    if (!t) return null;
    return board('greenhouse', t, `https://job-boards.${eu ? 'eu.' : ''}greenhouse.io/${t}`, eu ? { region: 'eu' } : {});
  },
  // Lever: jobs(.eu).lever.co/<c>, api(.eu).lever.co/v0/postings/<c>.
  (_url, host, parts) => {
    const m = /^(jobs|api)(\.eu)?\.lever\.co$/.exec(host);
    if (!m) return null;
    const t = m[1] === 'api' ? (parts[0] === 'v0' && parts[1] === 'postings' ? token(parts[2]) : null) : token(parts[0]);
    if (!t) return null;
    return board('lever', t, `https://jobs.${m[2] ? 'eu.' : ''}lever.co/${t}`, m[2] ? { region: 'eu' } : {});
  },
  // Ashby: jobs.ashbyhq.com/<org> (and its /embed), api.ashbyhq.com/posting-api/job-board/<org>.
  (_url, host, parts) => {
    let t: string | null = null;
    if (host === 'jobs.ashbyhq.com') t = token(parts[0]);
    else if (host === 'api.ashbyhq.com' && parts[0] === 'posting-api' && parts[1] === 'job-board') t = token(parts[2]);
    return t ? board('ashby', t, `https://jobs.ashbyhq.com/${t}`) : null;
  },
  // Workable: apply.workable.com/<a>, the widget API, <a>.workable.com.
  (_url, host, parts) => {
    let t: string | null = null;
    if (host === 'apply.workable.com') {
      t = parts[0] === 'api' ? (parts[2] === 'widget' && parts[3] === 'accounts' ? token(parts[4]) : null) : token(parts[0]);
    } else {
      const m = /^([a-z0-9-]+)\.workable\.com$/.exec(host);
      if (m && !RESERVED_SUBDOMAINS.has(m[1]!)) t = m[1]!;
    }
    return t ? board('workable', t, `https://apply.workable.com/${t}/`) : null;
  },
  // SmartRecruiters: jobs./careers.smartrecruiters.com/<c>, api.smartrecruiters.com/v1/companies/<c>.
  (_url, host, parts) => {
    let t: string | null = null;
    if (host === 'jobs.smartrecruiters.com' || host === 'careers.smartrecruiters.com') t = token(parts[0]);
    else if (host === 'api.smartrecruiters.com' && parts[0] === 'v1' && parts[1] === 'companies') t = token(parts[2]);
    return t ? board('smartrecruiters', t, `https://jobs.smartrecruiters.com/${t}`) : null;
  },
  // Workday: <tenant>.wdN.myworkdayjobs.com/[<locale>/]<site>, the cxs API, wdN.myworkdaysite.com/recruiting/<tenant>/<site>.
  (_url, host, parts) => {
    const jobs = /^([a-z0-9-]+)\.(wd\d+)\.myworkdayjobs\.com$/.exec(host);
    if (jobs) {
      const tenant = jobs[1];
      const site = parts[0] === 'wday' && parts[1] === 'cxs' ? token(parts[3]) : token(LOCALE_SEGMENT.test(parts[0] ?? '') ? parts[1] : parts[0]);
      return site ? board('workday', `${tenant}/${site}`, `https://${host}/${site}`, { host, tenant, site }) : null;
    }
    const site = /^(wd\d+)\.myworkdaysite\.com$/.exec(host);
    if (site && parts[0] === 'recruiting' && token(parts[1]) && token(parts[2])) {
      const h = `${parts[1]}.${site[1]}.myworkdayjobs.com`;
      return board('workday', `${parts[1]}/${parts[2]}`, `https://${h}/${parts[2]}`, { host: h, tenant: parts[1], site: parts[2] });
    }
    return null;
  },
  // Recruitee: <c>.recruitee.com.
  (_url, host) => {
    const m = /^([a-z0-9-]+)\.recruitee\.com$/.exec(host);
    const company = m?.[1];
    if (!company || RESERVED_SUBDOMAINS.has(company)) return null;
    return board('recruitee', company, `https://${company}.recruitee.com`, { host });
  },
  // Teamtailor: career.teamtailor.com, <c>.career.teamtailor.com, <c>.teamtailor.com (custom domains are found on the page).
  (_url, host) => {
    const ownSite = host === 'career.teamtailor.com';
    const sub = /^([a-z0-9-]+)\.(?:career\.)?teamtailor\.com$/.exec(host);
    if (!ownSite && (!sub || RESERVED_SUBDOMAINS.has(sub[1]!))) return null;
    return board('teamtailor', host, `https://${host}/jobs`, { host });
  },
];

/** The board a URL names, parsed without any request; null when the URL is no supported board. */
export function detectBoardFromUrl(raw: string): CareersBoard | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const parts = seg(url);
  for (const rule of RULES) {
    const b = rule(url, host, parts);
    if (b) return b;
  }
  return null;
}

/** A stable key for counting one board seen several times. */
function boardKey(b: CareersBoard): string {
  return `${b.ats}:${b.board.toLowerCase()}`;
}

/** Where on a page a board was seen. */
type BoardEvidence = 'link' | 'iframe' | 'script' | 'state' | 'custom_domain';

export interface BoardCandidate extends CareersBoard {
  /** How many times the page names this board. */
  count: number;
  evidence: BoardEvidence[];
}

export interface CareersPageScan {
  /** Boards the page names, most often seen first; ties keep discovery order (markup before inline scripts). */
  boards: BoardCandidate[];
  /** Same-site links that look like careers pages, in page order, to follow when no board is named. */
  careers_links: string[];
}

const ATTR_SOURCES: [selector: string, attr: string, evidence: BoardEvidence][] = [
  ['a[href]', 'href', 'link'],
  ['area[href]', 'href', 'link'],
  ['link[href]', 'href', 'link'],
  ['form[action]', 'action', 'link'],
  ['iframe[src]', 'src', 'iframe'],
  ['iframe[data-src]', 'data-src', 'iframe'],
  ['script[src]', 'src', 'script'],
];
/** Absolute or protocol-relative URLs inside inline scripts and JSON state. */
const URL_IN_TEXT = /(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}(?:\/[^\s"'<>\\`)]*)?/gi;
/** Assets only a Teamtailor-hosted career site loads: the page's own host is then the board. */
const TEAMTAILOR_SITE = /teamtailor-cdn\.com|cdn\.teamtailor\.com|teamtailor\.com\/(?:assets|packs)/i;
const CAREERS_WORDS = /career|karriere|jobs?\b|join[- ]?us|work[- ]?with[- ]?us|vacanc|openings|open[- ]?positions|hiring|stellen|empleo|emplois/i;

/** The first label of a host name (`jobs.acme.com` → `jobs`). */
export function firstLabel(host: string): string {
  return host.split('.', 1)[0] ?? '';
}

/** The registrable part of a host (`www.acme.co.uk` → `acme.co.uk`), to tell same-site links. */
export function siteOf(host: string): string {
  const labels = host
    .toLowerCase()
    .replace(/^www\./, '')
    .split('.');
  // Two-letter second-level labels under a country code (co.uk, com.au) belong to the suffix.
  const n = labels.length >= 3 && /^(co|com|org|net|gov|ac|edu)$/.test(labels[labels.length - 2]!) ? 3 : 2;
  return labels.slice(-n).join('.');
}

function unescapeState(text: string): string {
  return text
    .replace(/\\u002[fF]/g, '/')
    .replace(/\\\//g, '/')
    .replace(/&amp;/g, '&');
}

/**
 * Boards named on a careers page: links, iframes, embed scripts, URLs inside inline scripts and
 * JSON state, and a Teamtailor site served on the company's own (sub)domain. No request is made.
 */
export function scanCareersPage(html: string, pageUrl: string): CareersPageScan {
  const $ = cheerio.load(html);
  const found = new Map<string, BoardCandidate>();
  const note = (raw: string | undefined, evidence: BoardEvidence): void => {
    if (!raw) return;
    let abs: string;
    try {
      abs = new URL(raw.trim(), pageUrl).toString();
    } catch {
      return;
    }
    const b = detectBoardFromUrl(abs);
    if (!b) return;
    const key = boardKey(b);
    const seen = found.get(key);
    if (seen) {
      seen.count += 1;
      if (!seen.evidence.includes(evidence)) seen.evidence.push(evidence);
    } else {
      found.set(key, { ...b, count: 1, evidence: [evidence] });
    }
  };

  for (const [selector, attr, evidence] of ATTR_SOURCES) {
    $(selector).each((_, el) => note($(el).attr(attr), evidence));
  }
  $('script:not([src])').each((_, el) => {
    const text = unescapeState($(el).text());
    const evidence: BoardEvidence =
      /json/i.test($(el).attr('type') ?? '') || /__NEXT_DATA__|__NUXT__|__APOLLO_STATE__|__INITIAL_STATE__/.test(text) ? 'state' : 'script';
    for (const m of text.matchAll(URL_IN_TEXT)) note(m[0].startsWith('//') ? `https:${m[0]}` : m[0], evidence);
  });

  let page: URL | null;
  try {
    page = new URL(pageUrl);
  } catch {
    page = null;
  }
  if (page && TEAMTAILOR_SITE.test(html) && !detectBoardFromUrl(page.toString())) {
    const host = page.hostname.toLowerCase();
    const key = `teamtailor:${host}`;
    if (!found.has(key)) found.set(key, { ats: 'teamtailor', board: host, board_url: `https://${host}/jobs`, host, count: 1, evidence: ['custom_domain'] });
  }

  const order = [...found.keys()];
  const boards = [...found.values()].sort((a, b) => b.count - a.count || order.indexOf(boardKey(a)) - order.indexOf(boardKey(b)));
  return { boards, careers_links: page ? careersLinks($, page) : [] };
}

function careersLinks($: cheerio.CheerioAPI, page: URL): string[] {
  const site = siteOf(page.hostname);
  const here = `${page.origin}${page.pathname}`.replace(/\/$/, '');
  const out: string[] = [];
  $('a[href]').each((_, el) => {
    const href = $(el).attr('href') ?? '';
    let u: URL;
    try {
      u = new URL(href, page);
    } catch {
      return;
    }
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || siteOf(u.hostname) !== site) return;
    const text = $(el).text().replace(/\s+/g, ' ').trim();
    if (!CAREERS_WORDS.test(u.pathname) && !CAREERS_WORDS.test(firstLabel(u.hostname)) && !CAREERS_WORDS.test(text)) return;
    u.hash = '';
    const clean = u.toString();
    if (clean.replace(/\/$/, '') === here || out.includes(clean)) return;
    out.push(clean);
  });
  return out;
}

/**
 * Boards named after the company's domain on the two systems whose APIs answer by token alone
 * (Greenhouse, Lever). Only candidates: the caller keeps one only when the system confirms
 * the board belongs to the same company.
 */
export function domainFallbackBoards(pageUrl: string): CareersBoard[] {
  let host: string;
  try {
    host = new URL(pageUrl).hostname.toLowerCase();
  } catch {
    return [];
  }
  const name = firstLabel(siteOf(host)).replace(/[^a-z0-9-]/g, '');
  if (!name) return [];
  return [board('greenhouse', name, `https://job-boards.greenhouse.io/${name}`), board('lever', name, `https://jobs.lever.co/${name}`)];
}

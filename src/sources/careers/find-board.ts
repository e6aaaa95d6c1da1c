import * as cheerio from 'cheerio';
import { InvalidInput, UpstreamFailed, upstreamStatusFailure } from '../../domain/errors.js';
import type { SafeFetchResponse } from '../../upstream/safe-fetch.js';
import { detectBoardFromUrl, domainFallbackBoards, firstLabel, scanCareersPage, siteOf, type BoardCandidate } from './detect.js';
import { assertOk, atsJson, fetchAts, fetchCareersPage, type CareersIo } from './io.js';
import { parseGreenhouseBoardInfo } from './parse-greenhouse.js';
import { greenhouseBoardInfoRequest } from './requests.js';
import { supportedSystemsText, type CareersBoard } from './types.js';

/** Same-site careers links followed when the first page names no board. */
const MAX_FOLLOWED_LINKS = 2;
/** Words a company name carries that its domain usually does not. */
const LEGAL_WORDS = new Set([
  'inc',
  'llc',
  'ltd',
  'limited',
  'gmbh',
  'ag',
  'sa',
  'sas',
  'bv',
  'nv',
  'plc',
  'co',
  'corp',
  'corporation',
  'company',
  'the',
  'hq',
]);

type ProbeOutcome = 'confirmed' | 'absent' | 'different_company' | 'failed';

interface BoardProbe {
  ats: string;
  board: string;
  outcome: ProbeOutcome;
}

export interface FoundBoard {
  board: CareersBoard;
  detected_by: 'page' | 'domain';
  /** Other boards the pages named, most often seen first. */
  candidates: CareersBoard[];
  pages_fetched: number;
  /** Present when the domain fallback ran. */
  board_probes?: BoardProbe[];
  /** The company name the system stated while confirming a domain-named board. */
  company_name: string | null;
}

function plain(b: CareersBoard | BoardCandidate): CareersBoard {
  const { count: _c, evidence: _e, ...board } = b as BoardCandidate;
  return board;
}

/** The first of the boards a scan found (callers pass at least one) and the others as candidates. */
function fromScan(boards: BoardCandidate[], pages: number): FoundBoard {
  return { board: plain(boards[0]!), detected_by: 'page', candidates: boards.slice(1).map(plain), pages_fetched: pages, company_name: null };
}

function notFound(url: string): InvalidInput {
  return new InvalidInput(`no supported careers board found at ${url}; supported systems: ${supportedSystemsText()}`);
}

/**
 * The board a URL names or a careers page leads to: a board URL is parsed with no request;
 * otherwise the page (plus at most two same-site careers links) is scanned; when none names a
 * board, the domain-named boards of Greenhouse and Lever are probed and kept only when the system
 * confirms the same company. Nothing found → 422 listing the supported systems.
 */
export async function findCareersBoard(io: CareersIo, url: string): Promise<FoundBoard> {
  const direct = detectBoardFromUrl(url);
  if (direct) return { board: direct, detected_by: 'page', candidates: [], pages_fetched: 0, company_name: null };

  let pages = 0;
  const first = await fetchCareersPage(io, url).catch((err: unknown) => {
    // A host that does not exist is the caller's mistake, not an upstream failure.
    if (err instanceof UpstreamFailed && err.detail === 'ENOTFOUND') throw new InvalidInput(`url host ${hostOf(url)} does not resolve`);
    throw err;
  });
  pages += 1;
  if (first.status >= 500 || first.status === 429) throw upstreamStatusFailure(first.status, { retryAfter: first.headers['retry-after'] })!;
  const redirected = detectBoardFromUrl(first.url);
  if (redirected) return { board: redirected, detected_by: 'page', candidates: [], pages_fetched: pages, company_name: null };
  const scan = isHtml(first) ? scanCareersPage(first.text(), first.url) : { boards: [], careers_links: [] };
  if (scan.boards.length) return fromScan(scan.boards, pages);

  for (const link of scan.careers_links.slice(0, MAX_FOLLOWED_LINKS)) {
    let res: SafeFetchResponse;
    try {
      res = await fetchCareersPage(io, link);
    } catch {
      continue;
    } finally {
      pages += 1;
    }
    const board = detectBoardFromUrl(res.url);
    if (board) return { board, detected_by: 'page', candidates: [], pages_fetched: pages, company_name: null };
    if (res.status >= 400 || !isHtml(res)) continue;
    const more = scanCareersPage(res.text(), res.url);
    if (more.boards.length) return fromScan(more.boards, pages);
  }

  const probes: BoardProbe[] = [];
  for (const candidate of domainFallbackBoards(url)) {
    const { outcome, name } = await probe(io, candidate, url);
    probes.push({ ats: candidate.ats, board: candidate.board, outcome });
    if (outcome === 'confirmed') {
      return { board: candidate, detected_by: 'domain', candidates: [], pages_fetched: pages, board_probes: probes, company_name: name };
    }
  }
  throw notFound(url);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function isHtml(res: SafeFetchResponse): boolean {
  const type = res.headers['content-type'] ?? '';
  return type === '' || /html|xml|text\/plain/i.test(type);
}

/** Whether the system knows a board of that name, and whether it is the company of `pageUrl`. */
async function probe(io: CareersIo, b: CareersBoard, pageUrl: string): Promise<{ outcome: ProbeOutcome; name: string | null }> {
  const site = siteOf(new URL(pageUrl).hostname);
  try {
    if (b.ats === 'greenhouse') {
      const res = await fetchAts(io, greenhouseBoardInfoRequest(b));
      if (res.status === 404) return { outcome: 'absent', name: null };
      assertOk(res);
      const payload = atsJson(res, 'greenhouse board');
      const info = parseGreenhouseBoardInfo(payload);
      const content = (payload as { content?: unknown }).content;
      const same = nameMatchesSite(info.name, site) || (typeof content === 'string' && linksToSite(content, site));
      return { outcome: same ? 'confirmed' : 'different_company', name: info.name };
    }
    // Lever states no company name in its API; its hosted board page links back to the company's site.
    const res = await fetchAts(io, { method: 'GET', url: b.board_url, headers: { accept: 'text/html' } });
    if (res.status === 404) return { outcome: 'absent', name: null };
    assertOk(res);
    return { outcome: linksToSite(res.text(), site) ? 'confirmed' : 'different_company', name: null };
  } catch {
    return { outcome: 'failed', name: null };
  }
}

/** "Acme, Inc." matches acme.com; "Acme Leisure Group" does not. */
function nameMatchesSite(name: string | null, site: string): boolean {
  if (!name) return false;
  const label = firstLabel(site).replace(/[^a-z0-9]/g, '');
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !LEGAL_WORDS.has(w));
  return label !== '' && words.join('') === label;
}

/** Whether markup links to a page of `site` (the company's own website). */
function linksToSite(html: string, site: string): boolean {
  const $ = cheerio.load(html);
  let found = false;
  $('a[href]').each((_, el) => {
    try {
      const u = new URL($(el).attr('href') ?? '');
      if ((u.protocol === 'https:' || u.protocol === 'http:') && siteOf(u.hostname) === site) found = true;
    } catch {
      // relative or malformed links are the board's own
    }
    return !found;
  });
  return found;
}

/**
 * Test payloads for the hotel operations, built from the recorded search pages
 * (`google-hotels/travel-search-*.html`): the AtySUc data blob is cut out of a real page, changed
 * into the shape of a property lookup's answer (see test/fixtures/README.md for where each piece
 * comes from) and put back into the same real page, or framed as the batchexecute RPC reply.
 */
import { at } from '../../src/domain/json.js';
import { dataServiceRpcIds, extractInitData } from '../../src/sources/metasearch/hotels/af-init-data.js';
import { DETAIL_EXTENSION } from '../../src/sources/metasearch/hotels/parse-detail.js';
import { EXTENSIONS } from '../../src/sources/metasearch/hotels/parse-search.js';
import { readFixture } from '../helpers/fixtures.js';

export const PAGES = {
  london: 'google-hotels/travel-search-london-long-stay.html',
  paris: 'google-hotels/travel-search-paris-budget.html',
  tokyo: 'google-hotels/travel-search-tokyo-standard.html',
} as const;

/** Tokens of the London page's first three results, in page order. */
export const LONDON_TOKENS = ['ChcI3Yb4rvW_yrBkGgsvZy8xdGR6cW0yNxAB', 'ChoIsIChxs6bjtzqARoNL2cvMTFiN2R6ZDBscBAB', 'ChgIsOCpkKiY3eraARoLL2cvMXRkZHg3OW4QAQ'] as const;

const html = new Map<string, string>();
export function page(rel: string): string {
  if (!html.has(rel)) html.set(rel, readFixture(rel));
  return html.get(rel)!;
}

const clone = <T>(v: T): T => structuredClone(v);

/** The page's AtySUc data blob (parsed). */
export function searchData(pageHtml: string): any {
  const key = [...dataServiceRpcIds(pageHtml)].find(([, id]) => id === 'AtySUc')![0];
  return clone(extractInitData(pageHtml).find((b) => b.key === key)!.data);
}

/** The same page with its AtySUc blob's data replaced. */
export function withData(pageHtml: string, data: unknown): string {
  const key = [...dataServiceRpcIds(pageHtml)].find(([, id]) => id === 'AtySUc')![0];
  const call = pageHtml.indexOf(`AF_initDataCallback({key: '${key}'`);
  const start = pageHtml.indexOf('data:', call) + 5;
  let depth = 0;
  let inString = false;
  let end = start;
  for (let i = start; i < pageHtml.length; i++) {
    const c = pageHtml[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        end = i + 1;
        break;
      }
    }
  }
  return pageHtml.slice(0, start) + JSON.stringify(data) + pageHtml.slice(end);
}

/** A result page without results: the list emptied and the paging block removed. */
export function emptySearchPage(pageHtml: string): string {
  const data = searchData(pageHtml);
  data[0][0][0][1] = [];
  data[0][0][0][3] = null;
  return withData(pageHtml, data);
}

/** The property payload (`397419284` extension) of the n-th result of a page. */
export function propertyPayload(pageHtml: string, n: number): any[] {
  const list = at(searchData(pageHtml), 0, 0, 0, 1) as unknown[];
  const payloads = list.flatMap((item) => {
    const p = at(item, 1, EXTENSIONS.property, 0);
    return p ? [p] : [];
  });
  return clone(payloads[n]) as any[];
}

/** A real seller entry (the Tokyo page's vacation rental names its seller at rate [21]). */
function sellerTemplate(): any[] {
  const data = searchData(page(PAGES.tokyo));
  const list = at(data, 0, 0, 0, 1) as unknown[];
  for (const item of list) {
    const sellers = at(item, 1, EXTENSIONS.property, 0, 6, 2, 21);
    if (Array.isArray(sellers) && sellers.length) return clone(sellers[0]) as any[];
  }
  throw new Error('no seller entry on the Tokyo page');
}

export interface SellerSpec {
  name: string;
  id: number;
  link: string;
  official?: boolean;
  /** [text, null, exact, null, rounded] like the RPC's featured sellers, or [text] like its full list. */
  nightly: unknown[];
  total: unknown[];
  /** [free, "date", "time", "short date"] or [0]. */
  cancellation?: unknown[] | null;
  /** [[room name, null, [[link, null, cancellation, null, nightly pair, total pair]]]] */
  rooms?: unknown[];
}

export function sellerEntry(s: SellerSpec): any[] {
  const e = sellerTemplate();
  e[0][0] = s.name;
  e[0][1] = s.id;
  e[0][2] = s.link;
  e[0][5] = s.official ? 1 : 0;
  if (s.rooms) e[7] = s.rooms;
  e[12][4] = s.nightly;
  e[12][5] = s.total;
  e[12][12][1] = s.cancellation ?? null;
  return e;
}

export interface DetailSpec {
  address?: string;
  phone?: [string, string];
  featured?: SellerSpec[];
  all?: SellerSpec[];
  /** [lowest, typical low, typical high, position, level code] at rate [7][1][i][16] with kind 15. */
  insights?: unknown[];
}

/**
 * A property lookup's AtySUc answer around one real property payload: the request echo of the real
 * page (root [1]) with the property meta at [1][2] and the payload under `441552390` beside the
 * `404340221` echo; address, phone, sellers and insights put at the slots the recorded reply uses.
 */
export function detailData(pageHtml: string, payload: any[], spec: DetailSpec = {}): any {
  const data = searchData(pageHtml);
  const p = clone(payload);
  if (spec.address) p[2][1] = [[[spec.address]]];
  if (spec.phone) p[2][2] = spec.phone;
  const rate = p[6][2];
  if (spec.featured) rate[2] = spec.featured.map(sellerEntry);
  if (spec.all) rate[21] = spec.all.map(sellerEntry);
  if (spec.insights) rate[7] = [null, [[15, null, null, null, null, ['insight'], null, null, null, null, null, null, null, null, null, null, spec.insights]]];
  data[0][0][0][1] = [[62], [23]];
  data[0][0][0][3] = null;
  data[1][2] = [1, null, null, null, null, p[20], 13, null, 0];
  const echo = (data[1] as unknown[]).find((e) => e && typeof e === 'object' && !Array.isArray(e) && EXTENSIONS.requestEcho in e) as Record<string, unknown>;
  echo[DETAIL_EXTENSION] = p;
  return data;
}

const room = (name: string, link: string, cancel: unknown[], nightly: unknown[], total: unknown[]) => [name, null, [[link, null, cancel, null, nightly, total]]];

/** The London page's first result as its own page: sellers, rooms, address and insights in the recorded slots. */
export function crownDetail(): any {
  const london = page(PAGES.london);
  return detailData(london, propertyPayload(london, 0), {
    address: '10 Example Street, London SW11 1AA, United Kingdom',
    phone: ['+44 20 0000 0000', 'tel:+442000000000'],
    insights: ['£29', '£25', '£45', 0.2, 2],
    featured: [
      {
        name: 'Booking.com',
        id: 184,
        link: '/aclk?sa=l&ai=booking-featured',
        nightly: ['£29', null, 28.94, null, 29],
        total: ['£203', null, 202.58, null, 203],
        cancellation: [1, 'Apr 10', '11:59 PM', '4/10'],
        rooms: [
          room('Double Room', '/aclk?sa=l&ai=booking-double', [1, 'Apr 10', '11:59 PM', '4/10'], ['£29', null, 28.94, null, 29], ['£203', null, 202.58, null, 203]),
          room('Junior Suite', '/aclk?sa=l&ai=booking-suite', [0], ['£41', null, 40.5, null, 41], ['£284', null, 283.5, null, 284]),
        ],
      },
      { name: 'Agoda', id: 100337601, link: '/aclk?sa=l&ai=agoda-featured', nightly: ['£30', null, 30.1, null, 30], total: ['£211', null, 210.7, null, 211], cancellation: [0] },
    ],
    all: [
      { name: 'The Crown, Battersea (PUBLOVE)', id: 226982928, link: '/travel/lodging/clk?pc=official', official: true, nightly: ['£33'], total: ['£231'] },
      { name: 'Agoda', id: 100337601, link: '/travel/lodging/clk?pc=agoda', nightly: ['£30'], total: ['£211'] },
      { name: 'Expedia.com', id: 89, link: '/travel/lodging/clk?pc=expedia', nightly: ['£31'], total: ['£216'] },
      { name: 'Bluepillow.com', id: 599653573, link: '/travel/lodging/clk?pc=bluepillow', nightly: ['£30'], total: ['£210'], cancellation: [1, 'Apr 12', '2:59 PM', '4/12'] },
    ],
  });
}

import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../../src/sources/registry.js';
import type { DriftRule } from '../../../src/config/drift-rules.js';
import { ALIASES, type Alias } from '../../../src/config/hosts.js';
import { driftItems, driftVerdict, type DriftContext } from '../../../src/upstream/drift.js';
import { parseSearchPage } from '../../../src/sources/metasearch/hotels/parse-search.js';
import { parseFlightResults } from '../../../src/sources/metasearch/flights/parse-results.js';
import { parseOtaoneSearchCards } from '../../../src/sources/otaone/search-cards.js';
import { parseOtatwoRooms } from '../../../src/sources/otatwo/rooms.js';
import { parseOtathreeStay } from '../../../src/sources/otathree/stay.js';
import { parseRentaloneQuote } from '../../../src/sources/rentalone/quote.js';
import { parseOtafourSecondaryData } from '../../../src/sources/otafour/secondary-data.js';
import { parseRentaltwoSearch } from '../../../src/sources/rentaltwo/stays-search.js';
import { parseTravelreviewSearch } from '../../../src/sources/travelreview/search.js';
import { parseHostelCityProperties } from '../../../src/sources/hostel/search.js';
import { parseNetworkSearch } from '../../../src/sources/network/parse-search.js';
import { parseVideoChannelPage } from '../../../src/sources/video/parse-channel.js';
import { parseVideoSearch } from '../../../src/sources/video/parse-search.js';
import { parseAppSearch } from '../../../src/sources/apps/parse-app.js';
import { parseRetailSearchItems } from '../../../src/sources/retail/parse-search.js';
import { parseTrendsExplore, parseTrendsTimeline, timeseriesWidget } from '../../../src/sources/trends/parse-trends.js';
import { fixturePath, fixtureSuite, readFixture, readFixtureJson } from '../../helpers/fixtures.js';
import { cassette, newpipeBody } from '../../helpers/recorded.js';
import { replaceBlob, blobData } from '../../fixtures/hotels-payloads.js';
import { OTAFOUR_SECONDARY_DATA, asRental } from '../../fixtures/ota-payloads.js';
import fs from 'node:fs';

/** The sources' drift rules, from their manifests (src/sources/<alias>/guards.ts). */
const DRIFT: Record<string, Readonly<Record<string, DriftRule>>> = Object.fromEntries(SOURCES.flatMap((s) => (s.guards ? [[s.alias, s.guards.drift]] : [])));

function driftRule(alias: string, kind: string): DriftRule {
  const rule = DRIFT[alias]?.[kind];
  if (!rule) throw new Error(`no drift rule ${alias}.${kind}`);
  return rule;
}

/**
 * Every source's drift rules (src/sources/<alias>/guards.ts) on its recorded replies (never a
 * verdict) and on a mutated copy of each (a verdict: the source moved or renamed what it always
 * states). Sources without a recorded reply use the hand-built payloads of the other tests
 * (test/fixtures/README.md). Each case parses as the source's fetch does under withContractGuard.
 */

/** Every key `from` renamed `to`, at any depth (a field the source renamed). */
function renamed<T>(value: T, from: string, to: string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k === from ? to : k, walk(x)]));
    return v;
  };
  return walk(structuredClone(value)) as T;
}

const zst = (rel: string) => Buffer.from(decompress(fs.readFileSync(fixturePath(rel)))).toString('utf8');

interface Case {
  source: Alias;
  kind: string;
  recorded: { name: string; parsed: () => unknown; raw?: string }[];
  mutated: { what: string; parsed: () => unknown; raw?: string; verdict: string | RegExp };
  ctx?: DriftContext;
}

const HOTEL_PAGES = ['london-long-stay', 'paris-budget', 'tokyo-5star', 'tokyo-standard'].map((p) => `google-hotels/travel-search-${p}.html`);
const FLIGHT_PAGES = ['nonstop-sfo_jfk_economy', 'layover-mad_nrt', 'domestic_business-lax_ord', 'overnight_1day-sfo_lhr_economy'].map(
  (p) => `google-flights/results-${p}.html.zst`,
);
const CARDS = 'booking/search-results-cards-belgrade-2026-11-14.html';
const OFFERS = 'expedia/propertyOffers-9209612-2023.json';
const STAYS = ['airbnb/StaysSearch-excerpt-lyon-2026-09.json'];
const TRIVAGO = 'trivago/search-kotor-2026-10-22.json';
const HOSTELS = 'hostelworld/city-properties-amsterdam-2026-06.json';
const JOBS = 'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html';
const CHANNEL = 'youtube/browse-channel-videos-tab-UCTwECeGqMZee77BjdoYtI2Q.newpipe-mock.json';
const VIDEO_SEARCH = 'youtube/search-query-test-videos-filter.newpipe-mock.json';
const APPS = ['apps/itunes-search-macsoftware-bear.json', 'apps/itunes-search-macsoftware-bbedit-single.json'];
const WALMART = 'walmart/search-nextdata-itemstacks-items.scrapfly.json';
const TRENDS = ['google_trends/cassette-interest-over-time-pizza-bagel-daily.vcr.yaml', 'google_trends/cassette-interest-over-time-5y-weekly-partial.vcr.yaml'];

/** The hotel search page with every result's rate block moved out of the slot the parser reads. */
function hotelRatesMoved(page: string): string {
  const data = blobData(page, 'AtySUc');
  for (const item of data[0][0][0][1] as any[]) {
    const p = item?.[1]?.['397419284']?.[0];
    if (Array.isArray(p?.[6])) p[6] = [p[6][0], p[6][1], null, p[6][2]];
  }
  return replaceBlob(page, 'AtySUc', data);
}

/** The flight results page with every itinerary's price pair in a new shape. */
function flightPricesReshaped(page: string): string {
  const data = blobData(page, 'ds:1');
  for (const i of [2, 3]) for (const row of (data[i]?.[0] ?? []) as any[]) if (Array.isArray(row?.[1])) row[1] = [{ units: row[1][0]?.[1] }, row[1][1]];
  return replaceBlob(page, 'ds:1', data);
}

const grid = (payload: unknown, alias: 'otatwo' | 'otathree' | 'rentalone') =>
  alias === 'otatwo'
    ? parseOtatwoRooms(payload as never, { requestedCurrency: 'USD', nights: 10 })
    : alias === 'otathree'
      ? parseOtathreeStay(payload as never, { propertyId: '9209612', marketCurrency: 'USD' })
      : parseRentaloneQuote(payload as never, { propertyId: '9209612', listingId: null, marketCurrency: 'USD' } as never);
/** The group's price objects renamed (the offers' `price` block under a new name). */
const pricesRenamed = (payload: unknown) => renamed(payload, 'price', 'priceSummary');

const trendsSeries = (rel: string, mutate = (b: string) => b) => {
  const [, explore, data] = cassette(rel);
  return parseTrendsTimeline(mutate(data.body), timeseriesWidget(parseTrendsExplore(explore.body)));
};

const CASES: Case[] = [
  {
    source: 'metasearch',
    kind: 'hotel_search',
    recorded: HOTEL_PAGES.map((p) => ({ name: p, parsed: () => parseSearchPage(readFixture(p)) })),
    mutated: { what: 'rate blocks moved', parsed: () => parseSearchPage(hotelRatesMoved(readFixture(HOTEL_PAGES[0]))), verdict: 'all 18 items lack rate' },
  },
  {
    source: 'metasearch',
    kind: 'flight_results',
    recorded: FLIGHT_PAGES.map((p) => ({ name: p, parsed: () => parseFlightResults(zst(p)) })),
    mutated: { what: 'price pairs reshaped', parsed: () => parseFlightResults(flightPricesReshaped(zst(FLIGHT_PAGES[0]))), verdict: 'all 44 items lack price' },
  },
  {
    source: 'otaone',
    kind: 'search_cards',
    ctx: { priced: true },
    recorded: [{ name: CARDS, parsed: () => parseOtaoneSearchCards(readFixture(CARDS)), raw: readFixture(CARDS) }],
    mutated: {
      what: 'price test id renamed',
      parsed: () => parseOtaoneSearchCards(readFixture(CARDS).replaceAll('price-and-discounted-price', 'price-display')),
      verdict: 'all 6 items lack price',
    },
  },
  ...(['otatwo', 'otathree', 'rentalone'] as const).map((alias): Case => ({
    source: alias,
    kind: driftKindOf(alias),
    recorded: [{ name: OFFERS, parsed: () => grid(alias === 'rentalone' ? asRental(readFixtureJson(OFFERS)) : readFixtureJson(OFFERS), alias) }],
    mutated: {
      what: 'price blocks renamed',
      parsed: () => grid(pricesRenamed(alias === 'rentalone' ? asRental(readFixtureJson(OFFERS)) : readFixtureJson(OFFERS)), alias),
      verdict: /^all \d+ items lack (price|total or nightly)$/,
    },
  })),
  {
    source: 'otafour',
    kind: 'rooms',
    recorded: [{ name: 'OTAFOUR_SECONDARY_DATA (hand-built)', parsed: () => parseOtafourSecondaryData(OTAFOUR_SECONDARY_DATA as never, '2454174') }],
    mutated: {
      what: 'price objects renamed',
      parsed: () =>
        parseOtafourSecondaryData(
          renamed(renamed(renamed(OTAFOUR_SECONDARY_DATA, 'inclusivePrice', 'priceIncl'), 'pricing', 'priceModel'), 'totalPrice', 'priceTotal') as never,
          '2454174',
        ),
      verdict: /^all \d+ items lack price or total$/,
    },
  },
  {
    source: 'rentaltwo',
    kind: 'stays_search',
    ctx: { priced: true },
    recorded: STAYS.map((p) => ({ name: p, parsed: () => parseRentaltwoSearch(readFixtureJson(p), { origin: 'https://x.example' }) })),
    mutated: {
      what: 'display price renamed',
      parsed: () =>
        parseRentaltwoSearch(renamed(renamed(readFixtureJson(STAYS[0]), 'structuredDisplayPrice', 'displayPriceV3'), 'pricingQuote', 'quoteV3'), {
          origin: 'https://x.example',
        }),
      verdict: 'all 3 items lack price',
    },
  },
  {
    source: 'travelreview',
    kind: 'search',
    recorded: [{ name: TRIVAGO, parsed: () => parseTravelreviewSearch(readFixtureJson(TRIVAGO)) }],
    mutated: {
      what: 'prices renamed',
      parsed: () => parseTravelreviewSearch(renamed(renamed(readFixtureJson(TRIVAGO), 'price_per_night', 'nightly'), 'price_per_stay', 'stay')),
      verdict: 'all 4 items lack price_per_night or price_per_stay',
    },
  },
  {
    source: 'hostel',
    kind: 'city_properties',
    ctx: { priced: true },
    recorded: [{ name: HOSTELS, parsed: () => parseHostelCityProperties(readFixtureJson(HOSTELS)) }],
    mutated: {
      what: 'lowest prices renamed',
      parsed: () =>
        parseHostelCityProperties(renamed(renamed(readFixtureJson(HOSTELS), 'lowestPricePerNight', 'fromPrice'), 'lowestAveragePricePerNight', 'avgPrice')),
      verdict: 'all 3 items lack lowest_price_per_night or lowest_average_price_per_night',
    },
  },
  {
    source: 'network',
    kind: 'job_search',
    recorded: [{ name: JOBS, parsed: () => parseNetworkSearch(readFixture(JOBS), { start: 0 }), raw: readFixture(JOBS) }],
    mutated: {
      what: 'the card attribute renamed (the parser finds no card)',
      parsed: () => parseNetworkSearch(readFixture(JOBS).replaceAll('data-entity-urn', 'data-job-urn'), { start: 0 }),
      raw: readFixture(JOBS).replaceAll('data-entity-urn', 'data-job-urn'),
      verdict: 'the reply holds 10 items, none read',
    },
  },
  {
    source: 'video',
    kind: 'channel_videos',
    recorded: [{ name: CHANNEL, parsed: () => parseVideoChannelPage(newpipeBody(CHANNEL).body) }],
    mutated: {
      what: 'titles renamed',
      parsed: () => parseVideoChannelPage(renamed(newpipeBody(CHANNEL).body, 'title', 'headline')),
      verdict: /^all \d+ items lack title$/,
    },
  },
  {
    source: 'video',
    kind: 'search',
    recorded: [{ name: VIDEO_SEARCH, parsed: () => parseVideoSearch(newpipeBody(VIDEO_SEARCH).body) }],
    mutated: {
      what: 'titles renamed',
      parsed: () => parseVideoSearch(renamed(newpipeBody(VIDEO_SEARCH).body, 'title', 'headline')),
      verdict: /^all \d+ items lack title$/,
    },
  },
  {
    source: 'apps',
    kind: 'search',
    recorded: APPS.map((p) => ({ name: p, parsed: () => parseAppSearch(readFixtureJson(p)) })),
    mutated: {
      what: 'trackName renamed',
      parsed: () => parseAppSearch(renamed(readFixtureJson(APPS[0]), 'trackName', 'name')),
      verdict: 'all 50 items lack title',
    },
  },
  {
    source: 'retail',
    kind: 'search',
    recorded: [{ name: WALMART, parsed: () => parseRetailSearchItems(readFixtureJson(WALMART)) }],
    mutated: {
      what: 'price info renamed',
      parsed: () => parseRetailSearchItems(renamed(readFixtureJson(WALMART), 'priceInfo', 'pricing')),
      verdict: 'all 150 items lack price',
    },
  },
  {
    source: 'trends',
    kind: 'timeline',
    recorded: TRENDS.map((p) => ({ name: p, parsed: () => trendsSeries(p), raw: cassette(p)[2].body })),
    mutated: {
      what: 'values renamed (the parser reads no series)',
      parsed: () => trendsSeries(TRENDS[0], (b) => b.replaceAll('"value":', '"values":')),
      raw: cassette(TRENDS[0])[2].body.replaceAll('"value":', '"values":'),
      verdict: /^the reply holds \d+ items, none read$/,
    },
  },
];

function driftKindOf(alias: 'otatwo' | 'otathree' | 'rentalone'): string {
  return Object.keys(DRIFT[alias])[0];
}

const suite = fixtureSuite(
  'drift rules on every source’s recorded replies and a mutated copy',
  ...HOTEL_PAGES,
  ...FLIGHT_PAGES,
  CARDS,
  OFFERS,
  ...STAYS,
  TRIVAGO,
  HOSTELS,
  JOBS,
  CHANNEL,
  VIDEO_SEARCH,
  ...APPS,
  WALMART,
  ...TRENDS,
);

describe(suite.title, () => {
  it('every source has a rule, and every rule a case here', () => {
    const ruled = ALIASES.flatMap((a) => Object.keys(DRIFT[a] ?? {}).map((k) => `${a}.${k}`));
    expect(new Set(ALIASES.filter((a) => Object.keys(DRIFT[a] ?? {}).length > 0))).toEqual(new Set(ALIASES));
    expect(new Set(CASES.map((c) => `${c.source}.${c.kind}`))).toEqual(new Set(ruled));
  });

  for (const c of CASES) {
    describe(`${c.source}.${c.kind}`, () => {
      const rule = driftRule(c.source, c.kind);
      for (const r of c.recorded) {
        it(`no verdict on the recorded ${r.name}`, () => {
          const parsed = r.parsed();
          expect(driftItems(rule, parsed).length).toBeGreaterThan(0);
          expect(driftVerdict(rule, parsed, c.ctx, r.raw === undefined ? undefined : () => r.raw!)).toBeNull();
        });
      }
      it(`a verdict on a mutated copy (${c.mutated.what})`, () => {
        const raw = c.mutated.raw;
        expect(driftVerdict(rule, c.mutated.parsed(), c.ctx, raw === undefined ? undefined : () => raw)).toMatch(c.mutated.verdict);
      });
    });
  }

  it('retail: the store’s other price format (currentPrice) is read, not judged drift', () => {
    const items = renamed(readFixtureJson(WALMART), 'linePrice', 'x').map((it: any) =>
      it.priceInfo ? { ...it, priceInfo: { currentPrice: { price: it.priceInfo.minPrice, priceString: it.priceInfo.itemPrice || it.priceInfo.x } } } : it,
    );
    const parsed = parseRetailSearchItems(items);
    expect(parsed.filter((i) => i.price !== null).length).toBeGreaterThan(100);
    expect(driftVerdict(driftRule('retail', 'search'), parsed)).toBeNull();
  });
});

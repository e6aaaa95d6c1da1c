import { describe, expect, it } from 'vitest';
import { AMENITY_NAMES } from '../../../../src/sources/metasearch/hotels/amenities.js';
import { parseSearchPage } from '../../../../src/sources/metasearch/hotels/parse-search.js';
import { parseFlightResults, parseFlightResultsData } from '../../../../src/sources/metasearch/flights/parse-results.js';
import { extractAfData } from '../../../../src/sources/metasearch/flights/af-data.js';
import { fixtureSuite, readFixture } from '../../../helpers/fixtures.js';

/**
 * Rule: a meaning we read from a code the page does not label is named only where at least two
 * recorded pages show the code beside its label in text; otherwise it is removed (the list, with
 * the proof of each kept one, is in test/fixtures/README.md). These tests compute the proof from
 * the recorded pages themselves, so a table entry without it fails.
 */
const HOTEL_PAGES = [
  'travel-search-london-long-stay.html',
  'travel-search-paris-budget.html',
  'travel-search-tokyo-5star.html',
  'travel-search-tokyo-standard.html',
].map((f) => `google-hotels/${f}`);
const FLIGHT_PAGES = [
  'results-domestic_business-lax_ord',
  'results-layover-mad_nrt',
  'results-nonstop-sfo_jfk_economy',
  'results-overnight_1day-sfo_lhr_economy',
].map((f) => `google-flights/${f}.html.zst`);
const suite = fixtureSuite('inferred meanings: proven on two recorded pages or not named', ...HOTEL_PAGES, ...FLIGHT_PAGES);

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
const text = (html: string) => decode(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ');
const flightHtml = (rel: string) => readFixture(rel);

describe(suite.title, () => {
  it('hotel amenity codes: every named code is printed with its name on cards of at least two recorded pages', () => {
    const pages = new Map<number, Set<string>>();
    for (const rel of HOTEL_PAGES) {
      const html = readFixture(rel);
      // each card's accessible amenity list: "Amenities for <name>[, a N-star hotel.]: A, B, C"
      const cards = new Map<string, string[]>();
      for (const m of html.matchAll(/Amenities for ([^:]*?)(?:, a \d-star hotel\.)?: ([^"<]*)/g))
        cards.set(
          decode(m[1]).trim(),
          decode(m[2])
            .split(/,\s*/)
            .map((x) => x.trim()),
        );
      for (const p of parseSearchPage(html).properties) {
        const shown = cards.get(p.name);
        for (const a of p.amenities) {
          if (shown && a.code !== null && a.available && AMENITY_NAMES[a.code] && shown.includes(AMENITY_NAMES[a.code]))
            (pages.get(a.code) ?? pages.set(a.code, new Set()).get(a.code)!).add(rel);
        }
      }
    }
    const weak = Object.keys(AMENITY_NAMES)
      .map(Number)
      .filter((c) => (pages.get(c)?.size ?? 0) < 2);
    expect(weak.map((c) => `${c} ${AMENITY_NAMES[c]}: ${pages.get(c)?.size ?? 0} page(s)`)).toEqual([]);
  });

  it('location_rating (score code 4): the card prints the value beside "… location" on at least two recorded pages; codes 1, 2, 3 and 5 are labelled nowhere', () => {
    let proven = 0;
    for (const rel of HOTEL_PAGES) {
      const html = readFixture(rel);
      const body = text(html);
      const rated = parseSearchPage(html).properties.filter((p) => p.location_rating !== null);
      if (
        rated.some(
          (p) =>
            body.includes(`${p.location_rating!.toFixed(1)} Excellent location`) ||
            body.includes(`${p.location_rating!.toFixed(1)} Very good location`) ||
            body.includes(`${p.location_rating!.toFixed(1)} Good location`),
        )
      )
        proven++;
      // no page labels the other codes: no proximity / transit / airport rating text exists
      expect(body).not.toMatch(/proximity to|transit rating|airport access/i);
    }
    expect(proven).toBeGreaterThanOrEqual(2);
  });

  it('flight price level: code 1 is "low" on two recorded pages; the other levels are read from the label the page prints', () => {
    const shown: [string, number | null, string | null][] = FLIGHT_PAGES.map((rel) => {
      const html = flightHtml(rel);
      const fromData = parseFlightResultsData(extractAfData(html, 'ds:1')).price_insights;
      const label = /Prices are currently\s*(?:<[^>]*>\s*)*(low|typical|high)\b/i.exec(html)?.[1] ?? null;
      return [rel, fromData?.price_level_code ?? null, label];
    });
    expect(shown.filter(([, code, label]) => code === 1 && label === 'low')).toHaveLength(2);
    for (const rel of FLIGHT_PAGES) {
      const html = flightHtml(rel);
      const page = parseFlightResults(html).price_insights!;
      const code = parseFlightResultsData(extractAfData(html, 'ds:1')).price_insights!;
      expect(page.price_level).toBe(/Prices are currently\s*(?:<[^>]*>\s*)*(low|typical|high)\b/i.exec(html)![1]);
      // from the data alone only the proven code is named
      expect(code.price_level).toBe(code.price_level_code === 1 ? 'low' : null);
    }
  });

  it('flight cabin code 1 is "Economy": the three economy pages select Economy and every leg carries 1; other codes are not named', () => {
    const economy = FLIGHT_PAGES.filter((rel) => rel.includes('economy') || rel.includes('layover'));
    let proven = 0;
    for (const rel of economy) {
      const p = parseFlightResults(flightHtml(rel));
      const legs = [...p.best_flights, ...p.other_flights].flatMap((i) => i.flights);
      if (legs.length && legs.every((l) => l.travel_class === 'Economy')) proven++;
    }
    expect(proven).toBeGreaterThanOrEqual(2);
    const business = parseFlightResults(flightHtml(FLIGHT_PAGES[0]));
    expect(new Set([...business.best_flights, ...business.other_flights].flatMap((i) => i.flights.map((l) => l.travel_class)))).toEqual(
      new Set(['Economy', null]),
    );
  });

  it('flight leg overnight (slot [18][0]): every recorded page with flagged legs prints "Overnight"; on the domestic page one label per flagged leg', () => {
    const counts = FLIGHT_PAGES.map((rel) => {
      const html = flightHtml(rel);
      const p = parseFlightResults(html);
      return [
        [...p.best_flights, ...p.other_flights].flatMap((i) => i.flights).filter((l) => l.overnight).length,
        (text(html).match(/\bOvernight\b/g) ?? []).length,
      ];
    });
    expect(counts.filter(([legs, labels]) => legs > 0 && labels > 0).length).toBeGreaterThanOrEqual(2);
    expect(counts[0]).toEqual([40, 40]);
  });

  it('hotel result kind 1 is a hotel: its records print an N-star hotel class on at least two recorded pages', () => {
    const pages = HOTEL_PAGES.filter((rel) =>
      parseSearchPage(readFixture(rel)).properties.some((p) => p.kind === 'hotel' && /^\d-star hotel$/.test(p.hotel_class_text ?? '')),
    );
    expect(pages.length).toBeGreaterThanOrEqual(2);
  });
});

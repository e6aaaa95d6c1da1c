import { describe, expect, it } from 'vitest';
import { payPeriod } from '../../../../src/sources/careers/values.js';
import { parseAshbyBoard } from '../../../../src/sources/careers/parse-ashby.js';
import { parseLeverBoard } from '../../../../src/sources/careers/parse-lever.js';
import { parseRecruiteeBoard } from '../../../../src/sources/careers/parse-recruitee.js';
import { parseTeamtailorBoard } from '../../../../src/sources/careers/parse-teamtailor.js';
import { parseHostelAvailability } from '../../../../src/sources/hostel/availability.js';
import { parseSearchPage } from '../../../../src/sources/metasearch/hotels/parse-search.js';
import { correctedQuery, toCompatSearch } from '../../../../src/sources/metasearch/hotels/to-compat.js';
import { parseOtaoneSearchCards } from '../../../../src/sources/otaone/search-cards.js';
import { parseRentaltwoSearch } from '../../../../src/sources/rentaltwo/stays-search.js';
import { parseRetailSearchItems } from '../../../../src/sources/retail/parse-search.js';
import { dateOrInstant } from '../../../../src/domain/json.js';
import { extractVideoWatchData, parseVideo } from '../../../../src/sources/video/parse-video.js';
import { parseNetworkSearch } from '../../../../src/sources/network/parse-search.js';
import { fixtureSuite, readFixture, readFixtureJson } from '../../../helpers/fixtures.js';

/**
 * The fidelity rules on recorded payloads (../shared/fixtures):
 * 1. a price or pay keeps the period or unit the page states it for (null when it states none);
 * 2. a date-only value stays YYYY-MM-DD; a timestamp only where the page states a time;
 * 3. an answer the upstream gave for another query than asked says so.
 */
const RECRUITEE = 'ats/recruitee-api-offers.json';
const ASHBY = 'ats/ashby-posting-api-job-board-highlightta.json';
const LEVER = 'ats/lever-v0-postings-idealistconsulting.json';
const TEAMTAILOR = 'ats/teamtailor-jobs-jsonfeed.json';
const WALMART = 'walmart/search-nextdata-itemstacks-items.scrapfly.json';
const CARDS = 'booking/search-results-cards-belgrade-2026-11-14.html';
const HOSTEL = 'hostelworld/availability-property-93919-2026-06.json';
const LYON = 'airbnb/StaysSearch-excerpt-lyon-2026-09.json';
const TOKYO = 'google-hotels/travel-search-tokyo-standard.html';
const WATCH = 'youtube/watch-page-GJLlxj_dtq8.html';
const LINKEDIN = 'linkedin/jobs-guest-search-seeMoreJobPostings-quality-manager.html';

const periods = fixtureSuite('rule 1: period and unit kept', RECRUITEE, ASHBY, LEVER, TEAMTAILOR, WALMART, CARDS, HOSTEL, LYON, TOKYO);
describe(periods.title, () => {
  it('careers pay: Recruitee’s period and Ashby’s interval are kept; boards stating no pay give no period', () => {
    const recruitee = parseRecruiteeBoard(readFixtureJson(RECRUITEE)).jobs.map((j) => j.compensation);
    expect(recruitee.filter(Boolean)).toEqual([
      { min: 60000, max: 75000, currency: 'EUR', period: 'year', text: null },
      { min: 75000, max: 90000, currency: 'EUR', period: 'year', text: null },
    ]);
    const ashby = parseAshbyBoard(readFixtureJson(ASHBY))
      .jobs.map((j) => j.compensation)
      .filter(Boolean);
    expect(ashby).toEqual([expect.objectContaining({ currency: 'CAD', period: 'year', text: 'CA$102.8K – CA$137K' })]);
    expect(parseLeverBoard(readFixtureJson(LEVER)).jobs.every((j) => j.compensation === null)).toBe(true);
    expect(parseTeamtailorBoard(readFixtureJson(TEAMTAILOR)).jobs.every((j) => j.compensation === null)).toBe(true);
  });

  it('the boards’ period words map to ours; anything else (one-time, several periods) is null', () => {
    expect(
      ['year', '1 YEAR', 'per-year-salary', 'per-hour-wage', 'per-month-salary', 'per-week-salary', 'per-day-wage', 'HOUR', 'MONTH', 'hourly', 'annual'].map(
        payPeriod,
      ),
    ).toEqual(['year', 'year', 'year', 'hour', 'month', 'week', 'day', 'hour', 'month', 'hour', 'year']);
    expect(['one-time', '3 MONTH', '', null, 12].map(payPeriod)).toEqual([null, null, null, null, null]);
  });

  it('retail: the price per unit the page states, with its unit', () => {
    const items = parseRetailSearchItems(readFixtureJson(WALMART));
    const unit = items.filter((i) => i.unit_price_text);
    // the recorded list carries that laptop twice (two stacks), each with its unit price
    expect(new Set(unit.map((i) => `${i.item_id} ${i.price_text} ${i.unit_price_text}`)).size).toBe(1);
    expect([unit[0].price_text, unit[0].unit_price_text]).toEqual(['$539.00', '$539.00/pa']);
    expect(items.length).toBeGreaterThan(unit.length);
  });

  it('stays: a stay price and a nightly price stay apart, each named for what it covers', () => {
    // first OTA card: the price is for the stay the card states
    const card = parseOtaoneSearchCards(readFixture(CARDS))[0];
    expect([card.stay_text, card.price_text, card.price]).toEqual(['2 nights, 2 adults', '€ 45', 45]);
    // hostel: per stay and per night, per rate plan
    const dorm = parseHostelAvailability(readFixtureJson(HOSTEL)).rooms[0].offers[0];
    expect([dorm.total, dorm.average_per_night, dorm.nights.length]).toEqual([187.9, 62.63, 3]);
    // rental platform: the stay total, the qualifier it is for, and the price per qualifier
    const rental = parseRentaltwoSearch(readFixtureJson(LYON), { origin: 'https://www.rental.example' }).properties[0].price!;
    expect([rental.total_price, rental.qualifier, rental.price_per_qualifier]).toEqual(['$2,245', '5 nights', '$446.94']);
    // metasearch: per night and for the whole stay, as the card prints both
    const hotel = toCompatSearch(parseSearchPage(readFixture(TOKYO)), 'Tokyo').properties.find((p) => p.name === 'Almont Hotel Nippori')!;
    expect([(hotel.price_per_night as { price?: string }).price, (hotel.total_price as { price?: string }).price]).toEqual(['US$127', 'US$255']);
  });
});

const dates = fixtureSuite('rule 2: date precision kept', WATCH, LINKEDIN, HOSTEL);
describe(dates.title, () => {
  it('a date stays a date, a time stays a time', () => {
    expect(dateOrInstant('2018-08-02')).toBe('2018-08-02');
    expect(dateOrInstant('2018-08-02T06:00:08-07:00')).toBe('2018-08-02T13:00:08Z');
    expect(dateOrInstant('not a date')).toBeNull();
  });

  it('recorded pages: the watch page states times (kept), the job cards state days (kept as days), the hostel a deadline with its offset', () => {
    const video = parseVideo(extractVideoWatchData(readFixture(WATCH)));
    expect([video.published_date, video.upload_date]).toEqual(['2018-08-02T13:00:08Z', '2018-08-02T13:00:08Z']);
    // the same page with a date-only publishDate (older pages' form) keeps the day, no invented midnight
    const dayOnly = parseVideo(extractVideoWatchData(readFixture(WATCH).replaceAll('"publishDate":"2018-08-02T06:00:08-07:00"', '"publishDate":"2018-08-02"')));
    expect(dayOnly.published_date).toBe('2018-08-02');
    const cards = parseNetworkSearch(readFixture(LINKEDIN));
    expect(cards.length).toBeGreaterThan(0);
    for (const c of cards) if (c.posted_date) expect(c.posted_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(parseHostelAvailability(readFixtureJson(HOSTEL)).free_cancellation_until).toBe('2026-06-18T23:59:59+02:00');
  });
});

const corrected = fixtureSuite('rule 3: an answer for another query says so', TOKYO);
describe(corrected.title, () => {
  const page = parseSearchPage(readFixture(TOKYO));
  it('the page’s request echo names the query it answered: the same query asked is no correction', () => {
    expect(page!.query).toBe('Tokyo');
    expect(correctedQuery(page!, 'Tokyo')).toBeNull();
    expect(correctedQuery(page!, '  tokyo ')).toBeNull();
    expect(toCompatSearch(page!, 'Tokyo').search_information).toEqual({ total_results: 15000 });
  });
  it('answered for another query (a misspelling asked): search_information says which, with the original', () => {
    expect(correctedQuery(page!, 'Tokio')).toBe('Tokyo');
    expect(toCompatSearch(page!, 'Tokio').search_information).toEqual({ total_results: 15000, corrected_query: 'Tokyo', original_query: 'Tokio' });
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../helpers/fixtures.js';
import { NotFound, UpstreamContractChanged } from '../../../../src/domain/errors.js';
import { parseAppLookup, parseAppSearch } from '../../../../src/sources/apps/parse-app.js';
import { parseAppRatings, parseAppReviews } from '../../../../src/sources/apps/parse-reviews.js';
import { appLookupRequest, appRatingsRequest, appReviewsNextOffset, appReviewsRequest } from '../../../../src/sources/apps/requests.js';

const LOOKUP = 'apps/itunes-lookup-macsoftware-slack-803453959.json';
const BBEDIT = 'apps/itunes-search-macsoftware-bbedit-single.json';
const BEAR = 'apps/itunes-search-macsoftware-bear.json';
const payload = (name: string) => JSON.parse(readFileSync(new URL(`../../../fixtures/webdata/${name}`, import.meta.url), 'utf8'));

const lookup = fixtureSuite('apps lookup parser', LOOKUP);
describe(lookup.title, () => {
  it('maps the lookup result to the app object', () => {
    const app = parseAppLookup(readFixtureJson(LOOKUP), { app_id: '803453959' });
    expect(app).toMatchObject({
      app_id: '803453959',
      bundle_id: 'com.tinyspeck.slackmacgap',
      title: 'Slack',
      url: 'https://itunes.apple.com/us/app/slack/id803453959?mt=12&uo=4',
      developer: {
        name: 'Slack Technologies, Inc.',
        id: '453420243',
        url: 'https://itunes.apple.com/us/developer/slack-technologies-inc/id453420243?mt=12&uo=4',
      },
      seller: { name: 'Slack Technologies, Inc.', url: 'https://slack.com' },
      price: { value: 0, currency: 'USD', text: 'Free', free: true },
      rating: 4,
      ratings_count: 1467,
      current_version_rating: 4,
      current_version_ratings_count: 106,
      histogram: null,
      version: '3.3.3',
      released: '2014-01-23T02:46:20Z',
      updated: '2018-10-02T23:28:05Z',
      size_bytes: 74398324,
      minimum_os_version: '10.9',
      primary_genre: 'Business',
      primary_genre_id: 12001,
      genres: ['Business', 'Productivity'],
      content_rating: '4+',
      advisories: [],
      icon: 'https://is4-ssl.mzstatic.com/image/thumb/Purple128/v4/84/94/74/84947420-25dc-35e2-2761-9fa2b583c0a5/source/512x512bb.png',
      ipad_screenshots: [],
      languages: ['EN', 'FR', 'DE', 'JA', 'ES'],
    });
    expect(app.screenshots).toHaveLength(4);
    expect(app.release_notes!.startsWith('All updates are important, of course.')).toBe(true);
  });

  it('is a 404 when the storefront does not carry the app', () => {
    expect(() => parseAppLookup({ resultCount: 0, results: [] }, { app_id: '1' })).toThrow(NotFound);
    expect(() => parseAppLookup({ errorMessage: 'x' })).toThrow(UpstreamContractChanged);
  });
});

const search = fixtureSuite('apps search parser', BBEDIT, BEAR);
describe(search.title, () => {
  it('keeps "no ratings" apart from an average of 0', () => {
    const { apps } = parseAppSearch(readFixtureJson(BBEDIT));
    expect(apps[0]).toMatchObject({
      app_id: '404009241',
      title: 'BBEdit',
      bundle_id: 'com.barebones.bbedit',
      version: '13.1.3',
      rating: null,
      ratings_count: 0,
      size_bytes: 15198547,
      primary_genre: 'Developer Tools',
    });
  });

  it('maps fifty results in store order', () => {
    const { total, apps } = parseAppSearch(readFixtureJson(BEAR));
    expect(total).toBe(50);
    expect(apps).toHaveLength(50);
    expect(apps[0]).toMatchObject({ app_id: '1091189122', title: 'Bear', bundle_id: 'net.shinyfrog.bear' });
    expect(apps[3]).toMatchObject({ app_id: '738040933', title: 'Suru: Lists & Notes', rating: 4.60518, ratings_count: 309 });
  });
});

describe('apps ratings and reviews (self-written payloads mirroring the store answers)', () => {
  it('reads the 1- to 5-star histogram', () => {
    expect(parseAppRatings(payload('apps-customer-reviews.json'))).toEqual({
      app_id: '803453959',
      rating: 4,
      ratings_count: 1467,
      reviews_count: 41,
      histogram: { '1': 112, '2': 43, '3': 98, '4': 301, '5': 913 },
    });
    expect(() => parseAppRatings({ ratingCountList: [1, 2] })).toThrow(UpstreamContractChanged);
  });

  it('reads written reviews, leaves bare ratings out, keeps a developer response', () => {
    const { reviews, rows } = parseAppReviews(payload('apps-user-reviews-row.json'));
    expect(rows).toBe(3);
    expect(reviews).toEqual([
      {
        review_id: '3391452205',
        title: 'Solid',
        text: 'Works well for our team.\nNotifications could be quieter.',
        rating: 4,
        author: 'macuser42',
        date: '2018-10-05T14:02:11Z',
        edited: false,
      },
      {
        review_id: '3388810001',
        title: 'Crash',
        text: 'Crashes on wake since 3.3.3.',
        rating: 1,
        author: 'sleepy',
        date: '2018-10-03T08:40:00Z',
        edited: true,
        developer_response: { id: '7201934', text: 'Sorry about that! A fix ships in 3.3.4.', date: '2018-10-04T17:30:00Z' },
      },
    ]);
  });

  it('builds the requests and pages by 20', () => {
    expect(appLookupRequest({ app_id: 'id803453959', country: 'GB' }).path).toBe('/lookup?id=803453959&country=gb');
    expect(appLookupRequest({ bundle_id: 'com.tinyspeck.slackmacgap' }).path).toBe('/lookup?bundleId=com.tinyspeck.slackmacgap&country=us');
    expect(appRatingsRequest('803453959', 'us')).toMatchObject({
      path: '/us/customer-reviews/id803453959?displayable-kind=11',
      headers: { 'x-apple-store-front': '143441-1,29' },
    });
    expect(appReviewsRequest({ app_id: '803453959', sort: 'most_recent', offset: 40 }).path).toBe(
      '/WebObjects/MZStore.woa/wa/userReviewsRow?cc=us&id=803453959&displayable-kind=11&startIndex=40&endIndex=60&sort=4&appVersion=all',
    );
    expect(appReviewsNextOffset(0, 20, 41)).toBe(20);
    expect(appReviewsNextOffset(40, 1, 41)).toBeUndefined();
    expect(appReviewsNextOffset(20, 20, 40)).toBeUndefined();
  });
});

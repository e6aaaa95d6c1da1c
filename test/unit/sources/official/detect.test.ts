import { describe, expect, it } from 'vitest';
import { fixtureSuite, readFixtureJson } from '../../../helpers/fixtures.js';
import { OFFICIAL_ENGINES } from '../../../../src/sources/official/engines.js';
import { detectOfficialEngines } from '../../../../src/sources/official/detect.js';

/** The strongest match, or null when no engine leaves evidence. */
const detectOfficialEngine = (input: Parameters<typeof detectOfficialEngines>[0]) => detectOfficialEngines(input)[0] ?? null;

const DOMAINS = 'booking-engines/engine-domains-sadie-gtm.json';
const SIGNATURES = 'booking-engines/signatures-webappanalyzer-hotel-subset.json';
const PAGE = 'https://www.hotel-example.test/';

/** Hosts taken from booking links on real hotel sites rather than from the two fingerprint lists. */
const FROM_BOOKING_LINKS = [
  'direct-book.com',
  'book-directonline.com',
  'secure-hotel-booking.com',
  'book-secure.com',
  'simplebooking.it',
  'roomraccoon.co.uk',
  'guestline.app',
  'holidayfuture.com',
];

const page = (body: string, head = '') => `<html><head>${head}</head><body>${body}</body></html>`;
const link = (href: string) => page(`<nav><a href="${href}" target="_blank">Book now</a></nav>`);

const facts = fixtureSuite('official engine table against the recorded fingerprints', DOMAINS, SIGNATURES);
describe(facts.title, () => {
  const sadie = readFixtureJson(DOMAINS).engines as { engine: string; domains: string[] }[];
  const wa = readFixtureJson(SIGNATURES).technologies as Record<string, Record<string, unknown>>;
  const domains = sadie.flatMap((e) => e.domains);
  const patterns = Object.values(wa).flatMap((t) => [t.scriptSrc, t.scripts, t.dom].flat().filter((x): x is string => typeof x === 'string'));

  it('knows at least 31 engines, each host backed by a recorded fact or a real booking link', () => {
    expect(OFFICIAL_ENGINES.length).toBeGreaterThanOrEqual(31);
    const researchOnly: string[] = [];
    for (const e of OFFICIAL_ENGINES) {
      for (const h of e.hosts) {
        const inDomains = domains.some((d) => d === h || d.endsWith(`.${h}`));
        const inPatterns = patterns.some((p) => p.replace(/\\/g, '').includes(h));
        if (!inDomains && !inPatterns) researchOnly.push(h);
      }
    }
    expect(researchOnly.sort()).toEqual([...FROM_BOOKING_LINKS].sort());
  });

  it('detects every table engine from a booking link on its recorded domain', () => {
    for (const e of OFFICIAL_ENGINES) {
      const recorded = sadie.flatMap((s) => s.domains).find((d) => e.hosts.some((h) => d === h || d.endsWith(`.${h}`)));
      const host = recorded && !recorded.includes('/') ? recorded : e.hosts[0];
      const found = detectOfficialEngine({ html: link(`https://${host.includes('.') && host.split('.').length > 2 ? host : `book.${host}`}/`), pageUrl: PAGE });
      expect(found?.engine, `${e.id} via ${host}`).toBe(e.id);
    }
  });

  it('detects engines from their recorded script, DOM, global and cookie fingerprints', () => {
    const cases: [string, string, { html: string; cookies?: string[] }][] = [
      ['Cubilis', 'cubilis', { html: page('', '<script src="https://static.cubilis.eu/jsonp/widget.js"></script>') }],
      ['Simplotel', 'simplotel', { html: page('', '<script src="https://cdn.simplotel.com/js/booking.js"></script>') }],
      ['Lodgify', 'lodgify', { html: page('', '<script src="https://app.lodgify.com/book-now-box/stable/renderBookNowBox.js"></script>') }],
      ['Checkfront', 'checkfront', { html: page('', '<script src="https://example.checkfront.com/lib/interface--0.js"></script>') }],
      ['WuBook', 'wubook', { html: page('<script>var wbWuBookUrl = "/wbkd";</script>') }],
      ['Sirvoy', 'sirvoy', { html: page('<script>new SirvoyBookingWidget({});</script>') }],
      ['Clock PMS', 'clock-pms', { html: page('<script>window.clock_pms_iframe = true;</script>') }],
      ['Guesty', 'guesty', { html: page('', "<script id='guesty-js-extra'>var g = {};</script>") }],
      ['Witbooking', 'witbooking', { html: page('<form action="https://engine.witbooking.com/hotel-x/"></form>') }],
      ['Little Hotelier', 'little-hotelier', { html: page('<p>Welcome</p>'), cookies: ['_littlehotelier_session'] }],
      ['Eviivo', 'eviivo', { html: page('<p>Welcome</p>'), cookies: ['eviivo_lang'] }],
    ];
    for (const [tech, id, input] of cases) {
      const fp = wa[tech];
      expect(fp, `fingerprint ${tech} recorded`).toBeDefined();
      const found = detectOfficialEngine({ ...input, pageUrl: PAGE });
      expect(found?.engine, tech).toBe(id);
      const expected = input.html.includes('<form') ? 'https://engine.witbooking.com/hotel-x/' : null;
      expect(found?.booking_url, `${tech} booking link`).toBe(expected);
    }
    const scriptSrc = (wa.Cubilis.scriptSrc as string[])[0];
    expect(new RegExp(scriptSrc).test('https://static.cubilis.eu/jsonp/widget.js')).toBe(true);
  });
});

describe('official engine detection on booking links (synthetic snippets, real URL shapes)', () => {
  const cases: [string, string, string | null, string | null][] = [
    ['https://be.synxis.com/?Hotel=10868&Chain=24447&locale=en-US&adult=2', 'synxis', '10868', '24447'],
    ['https://hotels.cloudbeds.com/reservation/vGYC4D', 'cloudbeds', 'vGYC4D', null],
    ['https://hotels.cloudbeds.com/en/reservation/IfktBL#checkin=2023-10-20', 'cloudbeds', 'IfktBL', null],
    ['https://app.mews.com/distributor/275fe8d0-0c02-4602-aba7-b36f011bf606', 'mews', '275fe8d0-0c02-4602-aba7-b36f011bf606', null],
    ['https://direct-book.com/properties/luxurygardenpalace?locale=en', 'siteminder', 'luxurygardenpalace', null],
    ['https://reservations.verticalbooking.com/premium/index.html?id_albergo=13549&dc=3614&lingua_int=fra', 'vertical-booking', '13549', null],
    ['https://book.octorate.com/octobook/site/reservation/result.xhtml?codice=45111&pax=1', 'octorate', '45111', null],
    ['https://www.simplebooking.it/ibe2/hotel/8772', 'simple-booking', '8772', null],
    ['https://www.simplebooking.it/ibe/hotelbooking/search?hid=3565&lang=DE', 'simple-booking', '3565', null],
    ['https://www.beds24.com/booking2.php?propid=123', 'beds24', '123', null],
    ['https://bookings.rmscloud.com/Search/Index/12345/90/', 'rms-cloud', '12345', null],
    ['https://live.ipms247.com/booking/book-rooms-tarzanainn', 'ezee', 'tarzanainn', null],
    ['https://www.secure-hotel-booking.com/Cap-d-Antibes-Beach-Hotel/JK7H/en?hotelId=13829', 'd-edge', '13829', null],
    ['https://booking.profitroom.com/en/riverviewvillas/details/offer/876646', 'profitroom', 'riverviewvillas', null],
    ['https://thehotel.roomraccoon.com/', 'roomraccoon', 'thehotel', null],
    ['https://www.webrezpro.com/some/path', 'webrezpro', null, null],
  ];
  for (const [url, engine, hotelId, chain] of cases) {
    it(`${engine}: ${url}`, () => {
      const found = detectOfficialEngine({ html: link(url), pageUrl: PAGE });
      expect(found).not.toBeNull();
      expect(found!.engine).toBe(engine);
      expect(found!.hotel_id).toBe(hotelId);
      expect(found!.chain_id).toBe(chain);
      expect(found!.booking_url).toBe(new URL(url).href);
      expect(found!.confidence).toBe(1);
    });
  }

  it('reads booking URLs from frames, forms, inline configuration and rendered requests', () => {
    expect(detectOfficialEngine({ html: page('<iframe src="https://hotels.cloudbeds.com/reservation/IfktBL"></iframe>') })?.evidence[0].kind).toBe('frame');
    const inline = detectOfficialEngine({ html: page("<script>const config = { bookingUrl: 'https://be.synxis.com/?Hotel=37671' };</script>") });
    expect(inline).toMatchObject({ engine: 'synxis', hotel_id: '37671', booking_url: 'https://be.synxis.com/?Hotel=37671' });
    const req = detectOfficialEngine({
      html: page('<p>x</p>'),
      urls: ['https://app.mews.com/distributor/c2f077ef-c299-436e-8270-ad0200dd8fb1?mewsStart=2026-10-02'],
    });
    expect(req).toMatchObject({ engine: 'mews', hotel_id: 'c2f077ef-c299-436e-8270-ad0200dd8fb1' });
  });

  it('prefers a booking link over a script of another engine', () => {
    const html = page('<a href="https://be.synxis.com/?Hotel=10868&Chain=24447">Book</a>', '<script src="https://static.cubilis.eu/x.js"></script>');
    const all = detectOfficialEngines({ html, pageUrl: PAGE });
    expect(all.map((m) => m.engine)).toEqual(['synxis', 'cubilis']);
    expect(all[1].confidence).toBeLessThan(1);
  });

  it('prefers the link that carries the hotel id', () => {
    const html = page('<a href="https://www.cloudbeds.com/">Powered by</a><a href="https://hotels.cloudbeds.com/reservation/zHK7Qc">Book</a>');
    expect(detectOfficialEngine({ html, pageUrl: PAGE })).toMatchObject({ booking_url: 'https://hotels.cloudbeds.com/reservation/zHK7Qc', hotel_id: 'zHK7Qc' });
  });

  it('names the engine but gives no booking link for a vendor home-page link', () => {
    const found = detectOfficialEngine({ html: link('https://www.cloudbeds.com/'), pageUrl: PAGE });
    expect(found).toMatchObject({ engine: 'cloudbeds', booking_url: null, hotel_id: null });
    expect(found!.confidence).toBeLessThan(1);
  });

  it("never reads an engine out of another site's query string or the hotel's own subdomain", () => {
    expect(detectOfficialEngine({ html: link('https://www.facebook.com/sharer/sharer.php?u=https://be.synxis.com/?Hotel=1'), pageUrl: PAGE })).toBeNull();
    expect(
      detectOfficialEngine({ html: link('https://booking.hotelgaribaldi.it/book/offer/index?hotel=17986'), pageUrl: 'https://hotelgaribaldi.it/' }),
    ).toBeNull();
    expect(detectOfficialEngine({ html: link('https://www.notsynxis.com/?hotel=1'), pageUrl: PAGE })).toBeNull();
    expect(detectOfficialEngine({ html: page('<p>Kings Mews is a quiet street.</p>'), pageUrl: PAGE })).toBeNull();
  });

  it('resolves relative links against the page', () => {
    const found = detectOfficialEngine({
      html: page('<a href="/book">Book</a><iframe src="//hotels.cloudbeds.com/reservation/w3byzE"></iframe>'),
      pageUrl: PAGE,
    });
    expect(found).toMatchObject({ engine: 'cloudbeds', booking_url: 'https://hotels.cloudbeds.com/reservation/w3byzE' });
  });
});

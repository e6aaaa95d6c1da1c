import { describe, expect, it } from 'vitest';
import { detectOfficialEngines } from '../../../../src/sources/official/detect.js';
import { officialEngineBase, resolveOfficialEngineHosts } from '../../../../src/config/hosts.js';

const PAGE = 'https://www.hotel-example.test/';
const page = (body: string, head = '') => `<html><head>${head}</head><body>${body}</body></html>`;
const top = (html: string) => detectOfficialEngines({ html, pageUrl: PAGE })[0];

/** Hotel pages embedding the newly priced engines the way their public snippets and links do (test/fixtures/README.md). */
describe('official detection of the priced engines: what pricing needs, with the evidence', () => {
  it('profitroom: the site key of a booking.profitroom.com link', () => {
    const m = top(page('<a href="https://booking.profitroom.com/pl/villaexample/home?currency=PLN" class="book">Rezerwuj</a>'));
    expect(m).toMatchObject({ engine: 'profitroom', hotel_id: 'villaexample', chain_id: null, confidence: 1 });
    expect(m!.evidence[0]).toEqual({ kind: 'link', value: 'https://booking.profitroom.com/pl/villaexample/home?currency=PLN' });
  });

  it('little hotelier: the slug of a regional /properties/<slug> link', () => {
    const m = top(page(`<script>function sethotelier(){ window.open("https://apac.littlehotelier.com/properties/lukslofthoteldirect?locale=en") }</script>`));
    expect(m).toMatchObject({
      engine: 'little-hotelier',
      hotel_id: 'lukslofthoteldirect',
      booking_url: 'https://apac.littlehotelier.com/properties/lukslofthoteldirect?locale=en',
    });
    expect(m!.evidence[0]!.kind).toBe('inline_url');
  });

  it('synxis: hotel and chain of the deep link, either case', () => {
    for (const href of ['https://be.synxis.com/?adult=2&chain=35524&hotel=99189&level=hotel&locale=en-US', 'https://be.synxis.com/?Hotel=99189&Chain=35524']) {
      expect(top(page(`<a href="${href.replace(/&/g, '&amp;')}">Book</a>`))).toMatchObject({ engine: 'synxis', hotel_id: '99189', chain_id: '35524' });
    }
  });

  it("mews: the configuration id of the vendor's widget snippet (no booking link on the page)", () => {
    const html = page(
      `<button class="distributor-open">Book now</button>
       <script>Mews.Distributor({ configurationIds: ['942d3e9f-2347-4bc6-a69f-ab8a00d6b06b'], openElements: '.distributor-open' });</script>`,
      '<script src="https://api.mews.com/distributor/distributor.min.js"></script>',
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'mews', hotel_id: '942d3e9f-2347-4bc6-a69f-ab8a00d6b06b', booking_url: null });
    expect(m!.evidence.map((e) => e.kind)).toEqual(['script_src', 'js_global', 'js_global']);
    expect(m!.confidence).toBe(0.6);
    // a distributor link wins over the snippet and carries the same id
    expect(top(page('<a href="https://app.mews.com/distributor/942d3e9f-2347-4bc6-a69f-ab8a00d6b06b">Book</a>'))).toMatchObject({
      hotel_id: '942d3e9f-2347-4bc6-a69f-ab8a00d6b06b',
    });
  });
});

describe('official detection of eZee', () => {
  it('ezee: the slug of a live.ipms247.com/booking/book-rooms-<slug> button, the key OFFICIAL_EZEE_KEYS is looked up by', () => {
    const m = top(page('<a href="https://live.ipms247.com/booking/book-rooms-examplebeachresort" target="_blank" class="btn">Book Now</a>'));
    expect(m).toMatchObject({ engine: 'ezee', hotel_id: 'examplebeachresort', booking_url: 'https://live.ipms247.com/booking/book-rooms-examplebeachresort' });
    expect(m!.evidence[0]!.kind).toBe('link');
  });
});

describe('official detection of Lodgify', () => {
  it('lodgify: the property id of a checkout.lodgify.com link, either shape', () => {
    for (const [href, id] of [
      ['https://checkout.lodgify.com/en/blueportel/654566/reservation?currency=EUR&ref=bnbox&adults=1', '654566'],
      ['https://checkout.lodgify.com/thegoodlifebahamas/506741/reservation?currency=USD&ref=bnbox', '506741'],
      ['https://checkout.lodgify.com/holiday-home-host/en/#/761286', '761286'],
    ]) {
      const m = top(page(`<a href="${href}" class="btn">Book now</a>`));
      expect(m).toMatchObject({ engine: 'lodgify', hotel_id: id, booking_url: href, confidence: 1 });
    }
    // a link without the property names the engine but no id
    expect(top(page('<a href="https://checkout.lodgify.com/fr/blueportel/reservation?currency=EUR">Book</a>'))).toMatchObject({
      engine: 'lodgify',
      hotel_id: null,
    });
  });

  it("lodgify: the data-rental-id of the vendor's Book Now box embed (no booking link on the page)", () => {
    const html = page(
      `<div id="lodgify-book-now-box" data-rental-id="550300" data-website-id="500098" data-slug="casa-example" data-language-code="en" data-new-tab="true" data-version="stable"></div>
       <script src="https://app.lodgify.com/book-now-box/stable/renderBookNowBox.js" defer></script>`,
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'lodgify', hotel_id: '550300', booking_url: null, confidence: 0.6 });
    expect(m!.evidence).toEqual([
      { kind: 'script_src', value: 'https://app.lodgify.com/book-now-box/stable/renderBookNowBox.js' },
      { kind: 'dom', value: '#lodgify-book-now-box[data-rental-id="550300"]' },
    ]);
  });
});

describe('official detection of Checkfront', () => {
  it('checkfront: the account of a <account>.checkfront.com/reserve/ link', () => {
    const m = top(page('<a href="https://lakeside-lodge.checkfront.com/reserve/?category_id=2">Book a room</a>'));
    expect(m).toMatchObject({
      engine: 'checkfront',
      hotel_id: 'lakeside-lodge',
      booking_url: 'https://lakeside-lodge.checkfront.com/reserve/?category_id=2',
      confidence: 1,
    });
  });

  it("checkfront: the host of the vendor's booking plugin snippet (no booking link on the page)", () => {
    const html = page(
      `<div id="CHECKFRONT_WIDGET_01"><p id="CHECKFRONT_LOADER">Searching Availability...</p></div>
       <script>new DROPLET.Widget ({ host: 'lakeside-lodge.checkfront.com', target: 'CHECKFRONT_WIDGET_01', provider: 'droplet' }).render();</script>`,
      '<script src="//lakeside-lodge.checkfront.com/lib/interface--0.js"></script>',
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'checkfront', hotel_id: 'lakeside-lodge', booking_url: null, confidence: 0.6 });
    expect(m!.evidence.map((e) => e.kind)).toEqual(['script_src', 'js_global']);
  });

  it("checkfront's quotes go to the detected account's own host unless overridden", () => {
    const hosts = resolveOfficialEngineHosts({});
    expect(officialEngineBase(hosts.checkfront, null, 'lakeside-lodge')).toBe('https://lakeside-lodge.checkfront.com');
    // an id that is no host label is never made into one
    expect(officialEngineBase(hosts.checkfront, null, 'evil.example/x')).toBe('https://checkfront.com');
    const over = resolveOfficialEngineHosts({ UPSTREAM_OFFICIAL_CHECKFRONT_URL: 'http://127.0.0.1:9/cf' });
    expect(officialEngineBase(over.checkfront, null, 'lakeside-lodge')).toBe('http://127.0.0.1:9/cf');
  });
});

describe('official detection of Smoobu', () => {
  it("smoobu: the customer id of the vendor's booking tool embed (its initialize call's url)", () => {
    const html = page(
      `<div id="apartmentIframeAll"></div>
       <script>BookingToolIframe.initialize({ "url": "https://login.smoobu.com/en/booking-tool/iframe/753953", "baseUrl": "https://login.smoobu.com", "target": "#apartmentIframeAll" });</script>`,
      '<script src="https://login.smoobu.com/js/Settings/BookingToolIframe.js"></script>',
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'smoobu', hotel_id: '753953', booking_url: 'https://login.smoobu.com/en/booking-tool/iframe/753953', confidence: 0.8 });
    expect(m!.evidence.map((e) => e.kind)).toEqual(['inline_url', 'inline_url', 'script_src', 'js_global']);
    // a unit's own embed names the account first
    expect(top(page('<iframe src="https://login.smoobu.com/de/booking-tool/iframe/753953/1102"></iframe>'))).toMatchObject({
      hotel_id: '753953',
      confidence: 1,
    });
  });
});

describe('official detection of Hostaway', () => {
  it("hostaway: the listing id of the vendor's calendar widget snippet (on the host's own domain), or of a link to the account's booking site", () => {
    // the snippet as the vendor publishes it (test/fixtures/README.md): container, script, init call
    const html = page(
      `<div id="hostaway-calendar-widget"></div>
       <script src="https://d2q3n06xhbi0am.cloudfront.net/calendar.js"></script>
       <script>window.hostawayCalendarWidget({ baseUrl: 'https://achzeit.holidayfuture.com/', listingId: 463607, numberOfMonths: 2, openInNewTab: true, rounded: true, button: { action: 'checkout', text: 'Book now' }, color: { mainColor: '#2A2927' } })</script>`,
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'hostaway', hotel_id: '463607', confidence: 0.8 });
    expect(m!.evidence.map((e) => e.kind)).toContain('script_src');
    expect(top(page('<a href="https://zen.holidayfuture.com/listings/278625?start=2027-03-10">Book now</a>'))).toMatchObject({
      engine: 'hostaway',
      hotel_id: '278625',
      booking_url: 'https://zen.holidayfuture.com/listings/278625?start=2027-03-10',
      confidence: 1,
    });
  });
});

describe('official detection of Newbook', () => {
  it('newbook: the instance of a link to the online booking page (regional host)', () => {
    const m = top(page('<a class="btn" href="https://bookingsus.newbook.cloud/online/the_outpost">Book your stay</a>'));
    expect(m).toMatchObject({ engine: 'newbook', hotel_id: 'the_outpost', booking_url: 'https://bookingsus.newbook.cloud/online/the_outpost', confidence: 1 });
  });
});

describe('official engine hosts (config/hosts.ts)', () => {
  it('default hosts, one override per engine, and the regional host of a Little Hotelier link unless overridden', () => {
    const hosts = resolveOfficialEngineHosts({ UPSTREAM_OFFICIAL_PROFITROOM_URL: 'http://127.0.0.1:9/pr/' });
    expect(hosts.profitroom).toEqual({ url: 'http://127.0.0.1:9/pr', overridden: true, regional: null, account: null });
    expect(hosts.synxis.url).toBe('https://be.synxis.com');
    const link = 'https://apac.littlehotelier.com/properties/x';
    expect(officialEngineBase(hosts['little-hotelier'], link)).toBe('https://apac.littlehotelier.com');
    expect(officialEngineBase(hosts['little-hotelier'], 'https://evil.example/properties/x')).toBe('https://app.littlehotelier.com');
    const overridden = resolveOfficialEngineHosts({ UPSTREAM_OFFICIAL_LITTLE_HOTELIER_URL: 'http://127.0.0.1:9/lh' });
    expect(officialEngineBase(overridden['little-hotelier'], link)).toBe('http://127.0.0.1:9/lh');
  });
});

describe('official detection of WuBook', () => {
  it("wubook: the property code of the vendor's widget snippet, or of a link to the booking engine", () => {
    // the snippet as the vendor publishes it (test/fixtures/README.md): container, library, constructor with the lcode, design call
    const html = page(
      `<div id="_baror_"></div>
       <script src="https://wubook.net/js/wblib.jgz"></script>
       <script>var WuBook = new _WuBook(1411547593); var wbparams = { lang: 'en', layout: '', mobile: 1, width_unit: '%' }; WuBook.design_iframe("_baror_", wbparams);</script>`,
    );
    const m = top(html);
    expect(m).toMatchObject({ engine: 'wubook', hotel_id: '1411547593', booking_url: null, confidence: 0.6 });
    expect(m!.evidence.map((e) => e.kind)).toContain('script_src');
    expect(top(page('<a href="https://wubook.net/wbkd/wbk/?lcode=1484303494&amp;lang=ru&amp;wbgoogle=1" target="_blank">Book now</a>'))).toMatchObject({
      engine: 'wubook',
      hotel_id: '1484303494',
      booking_url: 'https://wubook.net/wbkd/wbk/?lcode=1484303494&lang=ru&wbgoogle=1',
      confidence: 1,
    });
  });
});

describe('official detection of RMS Cloud', () => {
  it('rms-cloud: the id of a link to the online booking page, a number or a 16-hex code', () => {
    const m = top(page('<a class="btn" target="_blank" href="https://bookings12.rmscloud.com/Search/Index/0C8B2754C6C8240A/1/">Book Now</a>'));
    expect(m).toMatchObject({ engine: 'rms-cloud', hotel_id: '0C8B2754C6C8240A', confidence: 1 });
    expect(top(page('<a href="https://betabookings8.rmscloud.com/Search/Index/15342/71/?Y=1">Book</a>'))).toMatchObject({
      engine: 'rms-cloud',
      hotel_id: '15342',
    });
  });
});

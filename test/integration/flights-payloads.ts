/**
 * Hand-written upstream payloads for the flight routes where no recorded one exists
 * (see test/fixtures/README.md). Sellers, click tokens and prices are invented; the price
 * token is the USD booking-page token published in fli's tests/search/test_proto.py.
 */

const USD_TOKEN = 'CjRIUHJ1SE9pTmdoeUVBQ0U1S2dCRy0tLS0tLS0tLS1wZm4zOUFBQUFBR29GZ2tjSG5SRHdBEgZBQTI4IzEaCwj4jgIQAhoDVVNEOBxw+I4C';
const CLICK = 'https://www.google.com/travel/clk/f';

/** One GetBookingResults option row: seller, flights, click-out link, price, offer token, fare. */
function row(opts: { code: string; name: string; airline?: boolean; flights: [string, string][]; host: string; u: string; price: number; fare?: string }): unknown[] {
  const seller = opts.airline === undefined ? [opts.code, opts.name] : [opts.code, opts.name, null, opts.airline];
  const r: unknown[] = [
    0,
    [seller],
    null,
    opts.flights,
    false,
    [opts.host, null, [CLICK, [['u', opts.u], ['hl', 'en-US']]]],
    null,
    [[null, opts.price], USD_TOKEN],
    null,
    null,
    false,
    null,
    null,
    null,
    [[[null, opts.fare ? [opts.flights[0][0], opts.fare.toUpperCase()] : [], 1]]],
    `offer-${opts.u}`,
    [null, opts.code, 0],
    null,
    true,
  ];
  if (opts.fare) r.push(null, null, [[opts.flights[0][0], opts.fare.toUpperCase()], [], null, opts.fare]);
  return r;
}

const HEADER = [null, [[1, 2, 3], null, null, null, null, [[4]]], 1, 'request', 'session'];
const ALL_FLIGHTS: [string, string][] = [['B6', '16'], ['MS', '754'], ['MS', '964']];

export const BOOKING_ROWS = [
  row({ code: 'EXAMPLETRAVEL', name: 'Example Travel', airline: false, flights: ALL_FLIGHTS, host: 'www.example-travel.com/…', u: 'ADowPO_ROW1', price: 1987 }),
  row({ code: 'OTHERAGENCY', name: 'Other Agency', flights: ALL_FLIGHTS, host: 'www.other-agency.com/…', u: 'ADowPO_ROW2', price: 2010 }),
  [
    5,
    [['B6', 'JetBlue', null, true], ['MS', 'EgyptAir', null, true]],
    [
      row({ code: 'B6', name: 'JetBlue', airline: true, flights: [['B6', '16']], host: 'www.jetblue.com', u: 'ADowPO_B6', price: 110, fare: 'Blue Basic' }),
      row({ code: 'MS', name: 'EgyptAir', airline: true, flights: [['MS', '754'], ['MS', '964']], host: 'www.egyptair.com', u: 'ADowPO_MS', price: 1761, fare: 'Economy Saver' }),
    ],
    null,
    [[null, 1871], USD_TOKEN],
    null,
    null,
    false,
  ],
  // a row without the click tracker is not a booking option
  [0, [['XX', 'Not an offer', null, true]], null, [['XX', '1']], false, ['www.example.com'], null, [[null, 1], USD_TOKEN]],
];

function callback(key: string, data: unknown): string {
  return `<script nonce="n">AF_initDataCallback({key: '${key}', hash: '1', data:${JSON.stringify(data)}, sideChannel: {}});</script>`;
}

function page(...scripts: string[]): string {
  return `<!doctype html><html lang="en" dir="ltr"><head><title>Google Flights</title>` +
    `<script nonce="n">var AF_initDataKeys = ["ds:0","ds:1"]; var AF_dataServiceRequests = {'ds:0' : {id:'AtySUc',request:[]}};</script>` +
    `</head><body>${scripts.join('')}</body></html>`;
}

const DS0 = [[null, null, 0, 'session'], [2, [null, null, 1, null, [], 1, [1, 0, 0, 0]]]];

/** Booking page whose data blob carries the option rows in the RPC reply's layout. */
export const BOOKING_PAGE = page(callback('ds:0', DS0), callback('ds:1', [HEADER, [BOOKING_ROWS], ALL_FLIGHTS, false, null, null, [[null, 1871], USD_TOKEN]]));

/** Booking page as it is reported to arrive: the itinerary header, no option rows. */
export const BOOKING_PAGE_WITHOUT_OPTIONS = page(callback('ds:0', DS0), callback('ds:1', [HEADER, [null, null, null, null, null, []]]));

/** A results page whose results blob is missing. */
export const RESULTS_PAGE_WITHOUT_DS1 = page(callback('ds:0', DS0));

/** A results page whose results blob holds no itinerary list (no flights for the search). */
export const RESULTS_PAGE_EMPTY = page(callback('ds:0', DS0), callback('ds:1', [[null, null, null, null, 'session'], [], null, null]));

/** The search engine's /sorry/ interstitial served in place of the page. */
export const SORRY_PAGE =
  '<html><head><title>https://www.google.com/travel/flights/search</title></head><body><div id="captcha-form">' +
  'Our systems have detected unusual traffic from your computer network. This page checks to see if it\'s really you sending the requests, and not a robot.' +
  '<div class="g-recaptcha" data-sitekey="x"></div></div></body></html>';

/** An autocomplete reply that matched nothing. */
export const LOCATION_NONE = `)]}'\n\n${(() => {
  const line = JSON.stringify([['wrb.fr', 'H028ib', JSON.stringify([[]]), null, null, null, 'generic']]);
  return `${line.length}\n${line}\n`;
})()}`;

/**
 * Hotel booking engines the `official` source recognises on a hotel website: the upstream host
 * table of the hotels' own booking engines. Facts, re-stated by hand from public fingerprint
 * lists (engine → booking domains; Wappalyzer-style script, DOM, global and cookie markers) and
 * from booking links seen on real hotel sites (hotel-id parameters and path shapes).
 */

export interface IdRule {
  /** Only for these hosts (suffix match); any engine host when absent. */
  hosts?: string[];
  /** Query parameter carrying the hotel id (matched case-insensitively). */
  query?: string;
  /** Path pattern whose first group is the hotel id. */
  path?: RegExp;
  /** The hotel's code is the left-most label of the engine host. */
  subdomain?: boolean;
  /** Fragment pattern whose first group is the hotel id (single-page engines routing on `#/<id>`). */
  hash?: RegExp;
}

export interface EngineSpec {
  id: string;
  name: string;
  /** Registrable domains; a URL on the domain or any subdomain is the engine's. */
  hosts: string[];
  scriptSrc?: RegExp[];
  /** Globals the engine's widget defines, as they appear in inline scripts. */
  globals?: RegExp[];
  cookies?: string[];
  dom?: string[];
  ids?: IdRule[];
  /** SynXis-style second key. */
  chainQuery?: string;
  /**
   * The hotel id in the engine's published embed snippet (inline script), group 1: for pages that
   * load the engine as a widget instead of linking to it. Used when no booking link carries an id.
   */
  inlineIds?: RegExp[];
  /** The hotel id in an attribute of the engine's published embed element (`selector`, `attr`), like `inlineIds`. */
  attrIds?: { selector: string; attr: string; pattern: RegExp }[];
}

export const OFFICIAL_ENGINES: readonly EngineSpec[] = [
  {
    id: 'synxis',
    name: 'SynXis / TravelClick',
    hosts: ['synxis.com', 'travelclick.com'],
    ids: [
      { hosts: ['synxis.com'], query: 'hotel' },
      { hosts: ['reservations.travelclick.com'], path: /^\/(\d+)/ },
    ],
    chainQuery: 'chain',
  },
  {
    id: 'cloudbeds',
    name: 'Cloudbeds',
    hosts: ['cloudbeds.com'],
    scriptSrc: [/\.cloudbeds\.com\//],
    globals: [/\bCloudBeds_widget\b/],
    dom: ["a[href*='.cloudbeds.com/'][target='_blank']"],
    ids: [{ hosts: ['hotels.cloudbeds.com'], path: /^\/(?:[a-z]{2}\/)?(?:reservation|widget\/load)\/([\w-]+)/ }],
  },
  {
    id: 'mews',
    name: 'Mews',
    hosts: ['mews.com', 'mews.li'],
    scriptSrc: [/\.mews\.li\//],
    globals: [/\bMews\s*[.(]/],
    dom: ["a[href*='.mews.li/'][target='_blank']"],
    ids: [{ path: /\/distributor\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i }],
    // Mews.Distributor({ configurationIds: ['<uuid>', …], … }) — the vendor's widget guide
    inlineIds: [/\bMews\.Distributor\(\s*\{[^}]*?configurationIds\s*:\s*\[\s*['"]([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})['"]/i],
  },
  {
    id: 'siteminder',
    name: 'SiteMinder',
    hosts: ['siteminder.com', 'thebookingbutton.com', 'direct-book.com', 'book-directonline.com'],
    scriptSrc: [/widget\.siteminder\.com/],
    ids: [{ hosts: ['direct-book.com', 'book-directonline.com', 'thebookingbutton.com'], path: /^\/properties\/([\w-]+)/ }],
  },
  {
    id: 'little-hotelier',
    name: 'Little Hotelier',
    hosts: ['littlehotelier.com'],
    cookies: ['_littlehotelier_session'],
    ids: [{ path: /^\/properties\/([\w-]+)/ }],
  },
  {
    id: 'd-edge',
    name: 'D-Edge (Availpro)',
    hosts: ['d-edge.com', 'availpro.com', 'secure-hotel-booking.com', 'book-secure.com', 'booking-ede.com'],
    ids: [{ query: 'hotelId' }, { hosts: ['book-secure.com'], query: 'property' }],
  },
  {
    id: 'profitroom',
    name: 'Profitroom',
    hosts: ['profitroom.com'],
    ids: [{ hosts: ['booking.profitroom.com'], path: /^\/(?:[a-z]{2}\/)?([\w-]+)/ }],
  },
  {
    id: 'simple-booking',
    name: 'Simple Booking',
    hosts: ['simplebooking.it'],
    scriptSrc: [/simplebooking\.it\/ibe\/widget\.js/],
    ids: [{ path: /^\/ibe2\/hotel\/(\d+)/ }, { query: 'hid' }],
  },
  {
    id: 'vertical-booking',
    name: 'Vertical Booking',
    hosts: ['verticalbooking.com'],
    ids: [{ query: 'id_albergo' }],
  },
  {
    id: 'octorate',
    name: 'Octorate',
    hosts: ['octorate.com'],
    scriptSrc: [/\.octorate\.com\//],
    globals: [/\boctorate\s*[.(]/],
    ids: [{ query: 'codice' }],
  },
  { id: 'beds24', name: 'Beds24', hosts: ['beds24.com'], ids: [{ query: 'propid' }] },
  {
    id: 'rms-cloud',
    name: 'RMS Cloud',
    hosts: ['rmscloud.com'],
    // bookings<n>.rmscloud.com/Search/Index/<id>/<onlineAgent>/ (a number or a 16-hex code), ibe<n>.rmscloud.com/<id>
    ids: [{ path: /\/(?:search|rates)\/index\/([0-9a-f]{16}|\d+)(?:\/|$)/i }, { path: /^\/(\d+)(?:\/|$)/ }],
  },
  {
    id: 'ezee',
    name: 'eZee (iPMS247)',
    hosts: ['ezeeabsolute.com', 'ezeereservation.com', 'ezeetechnosys.com', 'ipms247.com'],
    ids: [{ path: /\/booking\/book-rooms-([\w-]+)/ }],
  },
  { id: 'webrezpro', name: 'WebRezPro', hosts: ['webrezpro.com'] },
  { id: 'innroad', name: 'InnRoad', hosts: ['innroad.com'] },
  { id: 'resnexus', name: 'ResNexus', hosts: ['resnexus.com'] },
  { id: 'thinkreservations', name: 'ThinkReservations', hosts: ['thinkreservations.com'] },
  {
    id: 'newbook',
    name: 'Newbook',
    hosts: ['newbook.cloud', 'newbooksoftware.com'],
    // the property's online booking page: https://bookings<region>.newbook.cloud/online/<instance>
    ids: [{ hosts: ['newbook.cloud'], path: /^\/online\/([\w-]{1,64})(?:\/|$)/ }],
  },
  {
    id: 'roomraccoon',
    name: 'RoomRaccoon',
    hosts: ['roomraccoon.com', 'roomraccoon.co.uk'],
    ids: [{ subdomain: true }],
  },
  {
    id: 'eviivo',
    name: 'eviivo',
    hosts: ['eviivo.com'],
    globals: [/\beviivo\.announcement\b/],
    cookies: ['eviivo_lang'],
    ids: [{ hosts: ['book.eviivo.com', 'bookings.eviivo.com'], path: /^\/([\w-]+)/ }],
  },
  { id: 'freetobook', name: 'FreeToBook', hosts: ['freetobook.com'] },
  { id: 'sirvoy', name: 'Sirvoy', hosts: ['sirvoy.com'], globals: [/\bSirvoyBookingWidget\b/] },
  {
    id: 'lodgify',
    name: 'Lodgify',
    hosts: ['lodgify.com'],
    scriptSrc: [/\.lodgify\.com\//],
    // checkout.lodgify.com/[<lang>/]<account>/<propertyId>/reservation?…, or the older …/<account>/<lang>/#/<propertyId>
    ids: [
      { hosts: ['checkout.lodgify.com'], path: /^\/(?:[a-z]{2}\/)?[\w-]+\/(\d{3,12})(?:\/|$)/ },
      { hosts: ['checkout.lodgify.com'], hash: /^#\/(\d{3,12})\b/ },
    ],
    // <div id="lodgify-book-now-box" data-rental-id="<propertyId>" …> — the vendor's Book Now box embed
    attrIds: [{ selector: '#lodgify-book-now-box[data-rental-id]', attr: 'data-rental-id', pattern: /^\d{3,12}$/ }],
  },
  {
    id: 'guesty',
    name: 'Guesty',
    hosts: ['guesty.com'],
    cookies: ['guesty-muid', 'guesty-utms'],
    dom: ["script[id*='guesty-js-extra']"],
  },
  { id: 'hotelrunner', name: 'HotelRunner', hosts: ['hotelrunner.com'] },
  { id: 'amenitiz', name: 'Amenitiz', hosts: ['amenitiz.io', 'amenitiz.com'] },
  { id: 'avvio', name: 'Avvio', hosts: ['avvio.com'] },
  { id: 'net-affinity', name: 'Net Affinity', hosts: ['netaffinity.com'] },
  { id: 'bookassist', name: 'BookAssist', hosts: ['bookassist.com', 'bookassist.org'] },
  { id: 'guestcentric', name: 'GuestCentric', hosts: ['guestcentric.com'] },
  { id: 'seekda', name: 'Seekda / KUBE', hosts: ['seekda.com'] },
  {
    id: 'simplotel',
    name: 'Simplotel',
    hosts: ['simplotel.com'],
    scriptSrc: [/cdn\.simplotel\.com\//],
    globals: [/\bvalidateform_simplotel\b/],
  },
  { id: 'cubilis', name: 'Cubilis', hosts: ['cubilis.com', 'cubilis.eu'], scriptSrc: [/static\.cubilis\.eu\//] },
  { id: 'staah', name: 'Staah', hosts: ['staah.com'] },
  { id: 'hotelspider', name: 'HotelSpider', hosts: ['hotelspider.com'] },
  { id: 'guestline', name: 'Guestline', hosts: ['guestline.com', 'guestline.app'] },
  {
    id: 'wubook',
    name: 'WuBook',
    hosts: ['wubook.net'],
    scriptSrc: [/\/\/wubook\.net\//],
    globals: [/\b_WuBook\b/, /\bwbWuBookUrl\b/],
    // the booking engine's links carry the property code: wubook.net/wbkd/wbk/?lcode=<lcode>, wubook.net/nneb/bk?…&lcode=<lcode>
    ids: [{ hosts: ['wubook.net'], query: 'lcode' }],
    // var WuBook = new _WuBook(<lcode>); WuBook.design_iframe(…) — the vendor's widget snippet
    inlineIds: [/\bnew\s+_WuBook\s*\(\s*['"]?(\d{6,12})\b/],
  },
  {
    id: 'clock-pms',
    name: 'Clock PMS',
    hosts: ['clock-software.com', 'clock-pms.com'],
    scriptSrc: [/\.clock-software\.com\//],
    globals: [/\bclock_pms_iframe\b/],
  },
  { id: 'apaleo', name: 'Apaleo', hosts: ['apaleo.com'] },
  { id: 'reztrip', name: 'RezTrip', hosts: ['reztrip.com'] },
  { id: 'windsurfer', name: 'Windsurfer CRS', hosts: ['windsurfercrs.com'] },
  {
    id: 'witbooking',
    name: 'Witbooking',
    hosts: ['witbooking.com'],
    scriptSrc: [/www\.witbooking\.com/],
    dom: ["form[action*='engine.witbooking.com']"],
  },
  { id: 'hotelogix', name: 'Hotelogix', hosts: ['hotelogix.com'] },
  {
    id: 'checkfront',
    name: 'Checkfront',
    hosts: ['checkfront.com'],
    scriptSrc: [/\.checkfront\.com\//],
    // the account is the booking host's first label: <account>.checkfront.com/reserve/
    ids: [{ subdomain: true }],
    // new DROPLET.Widget({ host: '<account>.checkfront.com', … }) — the vendor's booking plugin snippet
    inlineIds: [/\bDROPLET\.Widget\s*\(\s*\{[^}]*?\bhost\s*:\s*['"]([a-z0-9][a-z0-9-]{0,62})\.checkfront\.com['"]/i],
  },
  { id: 'booking-experts', name: 'Booking Experts', hosts: ['bookingexperts.com'], scriptSrc: [/cdn-cms\.bookingexperts\.com/] },
  {
    id: 'smoobu',
    name: 'Smoobu',
    hosts: ['smoobu.com'],
    scriptSrc: [/login\.smoobu\.com\/js\/Settings\/BookingToolIframe\.js/],
    globals: [/\bBookingToolIframe\.initialize\b/],
    // BookingToolIframe.initialize({ url: 'https://login.smoobu.com/<lang>/booking-tool/iframe/<customerId>[/<apartmentId>]', … })
    ids: [{ hosts: ['login.smoobu.com'], path: /\/booking-tool\/iframe\/(\d{1,12})(?:\/|$)/ }],
  },
  {
    id: 'hostaway',
    name: 'Hostaway',
    hosts: ['hostaway.com', 'holidayfuture.com'],
    scriptSrc: [/d2q3n06xhbi0am\.cloudfront\.net\/calendar\.js/],
    globals: [/\bhostawayCalendarWidget\s*\(/],
    // the account's booking site: https://<account>.holidayfuture.com/listings/<listingId>
    ids: [{ hosts: ['holidayfuture.com'], path: /^\/listings\/(\d{1,12})(?:\/|$)/ }],
    // window.hostawayCalendarWidget({ baseUrl: 'https://<account>.holidayfuture.com/', listingId: <id>, … }) — the vendor's calendar widget snippet
    inlineIds: [/\bhostawayCalendarWidget\(\s*\{[^}]*?\blistingId\s*:\s*['"]?(\d{1,12})\b/],
  },
  { id: 'kross-booking', name: 'Kross Booking', hosts: ['krossbooking.com'], scriptSrc: [/data\.krossbooking\.com\//] },
];

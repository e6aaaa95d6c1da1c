/**
 * What the booking engines that cannot be asked anonymously need before the `official` source can
 * price them: Mews's registered client name (one per integrator, good for every Mews hotel), and
 * per-hotel API keys for the engines whose documented availability API is opened by the hotel
 * itself (eZee: a key the hotel enables in its own back office; Lodgify, Smoobu, Hostaway, WuBook: the account's
 * API key or token, from its own settings). These suit a hotel or a group pricing its own sites: the key is the
 * hotel's, the operator holds it. Without them those engines are detected and answered 422 naming
 * the setting; nothing is guessed. RMS Cloud needs both: an integrator's agent login and the property's
 * own client login, per property.
 */

/** One eZee hotel: its numeric hotel code and the API key it enabled for its booking engine. */
export interface EzeeHotelKey {
  hotelCode: string;
  apiKey: string;
}

export interface OfficialCredentials {
  /** OFFICIAL_MEWS_CLIENT: the Booking Engine API client name registered with Mews, or null. */
  mewsClient: string | null;
  /** OFFICIAL_EZEE_KEYS: booking-page slug (`book-rooms-<slug>`) → the hotel's code and key. */
  ezee: Readonly<Record<string, EzeeHotelKey>>;
  /** OFFICIAL_LODGIFY_KEYS: Lodgify property id (of the `checkout.lodgify.com/…/<id>/` link) → its account's API key. */
  lodgify: Readonly<Record<string, string>>;
  /** OFFICIAL_SMOOBU_KEYS: Smoobu customer id (of the booking tool's `booking-tool/iframe/<id>`) → its account's API key and secret. */
  smoobu: Readonly<Record<string, SmoobuKey>>;
  /** OFFICIAL_HOSTAWAY_KEYS: Hostaway listing id (of `<account>.holidayfuture.com/listings/<id>` or the calendar widget's `listingId`) → its account's access token. */
  hostaway: Readonly<Record<string, string>>;
  /** OFFICIAL_NEWBOOK_KEYS: Newbook instance (of `bookings<region>.newbook.cloud/online/<instance>`) → its region, API user and API key. */
  newbook: Readonly<Record<string, NewbookKey>>;
  /** OFFICIAL_WUBOOK_KEYS: WuBook property code (`lcode`, of its `new _WuBook(<lcode>)` widget or `lcode=` link) → its account's Wired API token. */
  wubook: Readonly<Record<string, string>>;
  /** OFFICIAL_RMS_KEYS: RMS Cloud booking-link id (of `/Search/Index/<id>/`, lower-cased) → the integrator's agent login and the property's client login and online agent. */
  rms: Readonly<Record<string, RmsKey>>;
}

/** What RMS Cloud's REST API needs for one property: the integrator's agent login (and module type), the property's client login, the online agent it sells through. */
export interface RmsKey {
  agentId: number;
  agentPassword: string;
  moduleType: string;
  clientId: number;
  clientPassword: string;
  onlineAgentId: number;
}

/** One Newbook instance's API region, API user (HTTP Basic) and API key. */
export interface NewbookKey {
  region: string;
  username: string;
  password: string;
  apiKey: string;
}

/** One Smoobu account's API key and the secret its requests are signed with. */
export interface SmoobuKey {
  apiKey: string;
  apiSecret: string;
}

/** No credentials: what the tool descriptions are written against. */
export const NO_CREDENTIALS: OfficialCredentials = Object.freeze({
  mewsClient: null,
  ezee: Object.freeze({}),
  lodgify: Object.freeze({}),
  smoobu: Object.freeze({}),
  hostaway: Object.freeze({}),
  newbook: Object.freeze({}),
  wubook: Object.freeze({}),
  rms: Object.freeze({}),
});

const EZEE_ENTRY = /^([\w-]{1,100})=(\d{1,11}):([\w-]{8,300})$/;

/**
 * Comma-separated `id=…` entries of one credential setting, each read by `re` into a value; an entry
 * of another shape throws naming only its id (the key itself is never echoed into an error or a log).
 */
function parseEntries<T>(text: string, re: RegExp, shape: string, read: (m: RegExpExecArray) => [string, T]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = re.exec(entry);
    if (!m) throw new Error(`entry "${entry.split('=')[0].slice(0, 100)}=…" is not ${shape}`);
    const [id, value] = read(m);
    out[id] = value;
  }
  return out;
}

/** `slug=hotelCode:apiKey[,slug=hotelCode:apiKey…]`; an entry of another shape throws (the setting is refused at start). */
export function parseEzeeKeys(text: string): Record<string, EzeeHotelKey> {
  return parseEntries(text, EZEE_ENTRY, 'slug=hotelCode:apiKey', (m) => [m[1].toLowerCase(), { hotelCode: m[2], apiKey: m[3] }]);
}

const LODGIFY_ENTRY = /^(\d{1,12})=([\w+/=-]{8,300})$/;

/** `propertyId=apiKey[,propertyId=apiKey…]` (one account's key may stand for several properties); another shape throws. */
export function parseLodgifyKeys(text: string): Record<string, string> {
  return parseEntries(text, LODGIFY_ENTRY, 'propertyId=apiKey', (m) => [m[1], m[2]]);
}

const SMOOBU_ENTRY = /^(\d{1,12})=([\w.-]{8,300}):([\w+/=.-]{8,300})$/;

/** `customerId=apiKey:apiSecret[,…]`; another shape throws. */
export function parseSmoobuKeys(text: string): Record<string, SmoobuKey> {
  return parseEntries(text, SMOOBU_ENTRY, 'customerId=apiKey:apiSecret', (m) => [m[1], { apiKey: m[2], apiSecret: m[3] }]);
}

const HOSTAWAY_ENTRY = /^(\d{1,12})=([\w-]{8,2000}\.[\w-]{8,2000}\.[\w-]{8,2000})$/;

/** `listingId=accessToken[,…]` (the account's JWT access token; one token may stand for all its listings); another shape throws. */
export function parseHostawayKeys(text: string): Record<string, string> {
  return parseEntries(text, HOSTAWAY_ENTRY, 'listingId=accessToken', (m) => [m[1], m[2]]);
}

const NEWBOOK_ENTRY = /^([\w-]{1,64})=([a-z]{2}):([\w.@+-]{1,200}):([^\s:,]{1,300}):([\w-]{8,300})$/;

/** `instance=region:username:password:apiKey[,…]` (instance as in the booking page's `/online/<instance>`); another shape throws. */
export function parseNewbookKeys(text: string): Record<string, NewbookKey> {
  return parseEntries(text, NEWBOOK_ENTRY, 'instance=region:username:password:apiKey', (m) => [
    m[1].toLowerCase(),
    { region: m[2], username: m[3], password: m[4], apiKey: m[5] },
  ]);
}

const WUBOOK_ENTRY = /^(\d{6,12})=([\w.-]{8,300})$/;

/** `lcode=token[,…]` (the property code of the booking engine and the Wired token its account issued); another shape throws. */
export function parseWubookKeys(text: string): Record<string, string> {
  return parseEntries(text, WUBOOK_ENTRY, 'lcode=token', (m) => [m[1], m[2]]);
}

const RMS_ENTRY = /^([0-9a-fA-F]{16}|\d{1,9})=(\d{1,9}):([^\s:,]{1,200}):([\w-]{1,50}):(\d{1,9}):([^\s:,]{1,200}):(\d{1,9})$/;

/** `linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId[,…]`; another shape throws. */
export function parseRmsKeys(text: string): Record<string, RmsKey> {
  return parseEntries(text, RMS_ENTRY, 'linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId', (m) => [
    m[1].toLowerCase(),
    { agentId: Number(m[2]), agentPassword: m[3], moduleType: m[4], clientId: Number(m[5]), clientPassword: m[6], onlineAgentId: Number(m[7]) },
  ]);
}

export function resolveOfficialCredentials(data: {
  OFFICIAL_MEWS_CLIENT?: string;
  OFFICIAL_EZEE_KEYS: Record<string, EzeeHotelKey>;
  OFFICIAL_LODGIFY_KEYS: Record<string, string>;
  OFFICIAL_SMOOBU_KEYS: Record<string, SmoobuKey>;
  OFFICIAL_HOSTAWAY_KEYS: Record<string, string>;
  OFFICIAL_NEWBOOK_KEYS: Record<string, NewbookKey>;
  OFFICIAL_WUBOOK_KEYS: Record<string, string>;
  OFFICIAL_RMS_KEYS: Record<string, RmsKey>;
}): OfficialCredentials {
  return {
    mewsClient: data.OFFICIAL_MEWS_CLIENT ?? null,
    ezee: data.OFFICIAL_EZEE_KEYS,
    lodgify: data.OFFICIAL_LODGIFY_KEYS,
    smoobu: data.OFFICIAL_SMOOBU_KEYS,
    hostaway: data.OFFICIAL_HOSTAWAY_KEYS,
    newbook: data.OFFICIAL_NEWBOOK_KEYS,
    wubook: data.OFFICIAL_WUBOOK_KEYS,
    rms: data.OFFICIAL_RMS_KEYS,
  };
}

export const OFFICIAL_CREDENTIALS_DOC = {
  OFFICIAL_MEWS_CLIENT:
    'client name registered with Mews for its Booking Engine API (docs.mews.com, booking-engine-api/guidelines/authentication); unset: Mews hotels are detected but not priced (422 naming this setting)',
  OFFICIAL_EZEE_KEYS:
    "eZee (iPMS247) hotels' own booking-engine API keys, `slug=hotelCode:apiKey` comma-separated (slug: the `book-rooms-<slug>` of the hotel's booking link; code and key: the hotel's, from its eZee back office); an eZee hotel not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_LODGIFY_KEYS:
    "Lodgify properties' own API keys, `propertyId=apiKey` comma-separated (property id: the number in the property's `checkout.lodgify.com/…/<id>/` booking link or its Book Now box `data-rental-id`; key: the account's, from its Lodgify settings); a Lodgify property not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_SMOOBU_KEYS:
    "Smoobu accounts' own API keys and secrets, `customerId=apiKey:apiSecret` comma-separated (customer id: the number after `login.smoobu.com/<lang>/booking-tool/iframe/` in the account's booking tool embed; key and secret: the account's, from its Smoobu API settings; requests are HMAC-signed, the legacy key-only header having been retired); a Smoobu account not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_HOSTAWAY_KEYS:
    "Hostaway accounts' own API access tokens, `listingId=accessToken` comma-separated (listing id: the number in the account's `<account>.holidayfuture.com/listings/<id>` booking link or its calendar widget's `listingId`; token: the account's, issued from its client secret at POST /v1/accessTokens, valid 24 months); a Hostaway listing not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_NEWBOOK_KEYS:
    "Newbook properties' own API access, `instance=region:username:password:apiKey` comma-separated (instance: the name after `newbook.cloud/online/` in the property's booking page link; region, API user and key: the property's, as Newbook issues them for its REST API); a Newbook property not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_WUBOOK_KEYS:
    "WuBook properties' own Wired API tokens, `lcode=token` comma-separated (lcode: the property code in the hotel's WuBook booking widget `new _WuBook(<lcode>)` or its booking link's `lcode=`; token: the property account's Wired token, as WuBook issues it to the account); a WuBook property not listed is detected but not priced (422 naming this setting)",
  OFFICIAL_RMS_KEYS:
    "RMS Cloud properties' REST API access, `linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId` comma-separated (linkId: the number or 16-hex code after `/Search/Index/` in the property's RMS booking link; agent id, password and module type: the integrator's, as RMS issues them; client id and web-service password: the property's; online agent: the property's online distribution channel whose rates are asked); an RMS property not listed is detected but not priced (422 naming this setting)",
} as const;

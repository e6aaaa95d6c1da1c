/**
 * What the booking engines that cannot be asked anonymously need before the `official` source can
 * price them: Mews's registered client name (one per integrator, good for every Mews hotel), and
 * per-hotel API keys for the engines whose documented availability API is opened by the hotel
 * itself (eZee: a key the hotel enables in its own back office). Without them those engines are
 * detected and answered 422 naming the setting; nothing is guessed.
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
}

/** No credentials: what the tool descriptions are written against. */
export const NO_CREDENTIALS: OfficialCredentials = Object.freeze({ mewsClient: null, ezee: Object.freeze({}) });

const EZEE_ENTRY = /^([\w-]{1,100})=(\d{1,11}):([\w-]{8,300})$/;

/** `slug=hotelCode:apiKey[,slug=hotelCode:apiKey…]`; an entry of another shape throws (the setting is refused at start). */
export function parseEzeeKeys(text: string): Record<string, EzeeHotelKey> {
  const out: Record<string, EzeeHotelKey> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = EZEE_ENTRY.exec(entry);
    // the key itself is never echoed into an error or a log line
    if (!m) throw new Error(`entry "${entry.split('=')[0].slice(0, 100)}=…" is not slug=hotelCode:apiKey`);
    out[m[1].toLowerCase()] = { hotelCode: m[2], apiKey: m[3] };
  }
  return out;
}

export function resolveOfficialCredentials(data: { OFFICIAL_MEWS_CLIENT?: string; OFFICIAL_EZEE_KEYS: Record<string, EzeeHotelKey> }): OfficialCredentials {
  return { mewsClient: data.OFFICIAL_MEWS_CLIENT ?? null, ezee: data.OFFICIAL_EZEE_KEYS };
}

export const OFFICIAL_CREDENTIALS_DOC = {
  OFFICIAL_MEWS_CLIENT:
    'client name registered with Mews for its Booking Engine API (docs.mews.com, booking-engine-api/guidelines/authentication); unset: Mews hotels are detected but not priced (422 naming this setting)',
  OFFICIAL_EZEE_KEYS:
    "eZee (iPMS247) hotels' own booking-engine API keys, `slug=hotelCode:apiKey` comma-separated (slug: the `book-rooms-<slug>` of the hotel's booking link; code and key: the hotel's, from its eZee back office); an eZee hotel not listed is detected but not priced (422 naming this setting)",
} as const;

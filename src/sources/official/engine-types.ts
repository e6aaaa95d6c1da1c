/**
 * What a booking engine's quote is given and answers (the engine registry is engine-quotes.ts).
 * The engine files import only these types, so the registry never reads a half-loaded module.
 */
import type { OfficialCredentials } from '../../config/engine-credentials.js';
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';

export interface EngineStay {
  /** The hotel id the website's booking link carries (`detect.ts`). */
  propertyCode: string;
  /** The chain (SynXis) code beside it, when the link carries one. */
  chainCode: string | null;
  /** The booking link itself: some engines' requests live under its path (D-Edge), or on its host. */
  bookingUrl: string | null;
  checkIn: string;
  checkOut: string;
  nights: number;
  adults: number;
  children: number;
  rooms: number;
  /** The caller's ISO currency, or null; only engines with `sendsCurrency` pass it on. */
  currency: string | null;
  /** ISO 639-1 language of names and terms, sent to engines that take one. */
  language: string;
}

/** Where the quote's requests go and the credentials it may need (config/hosts.ts, config/engine-credentials.ts). */
export interface EngineContext extends OfficialCredentials {
  /** Base URL of the engine's requests (`UPSTREAM_OFFICIAL_<ENGINE>_URL` or the real host), no trailing slash. */
  base: string;
}

export interface EngineRoomOffer {
  room_id: string;
  room_name: string | null;
  rate_name: string | null;
  rooms_available: number | null;
  /** The stay total, or null when the reply does not give one that can be trusted as such. */
  total: number | null;
  /** One upstream rate per night of the stay, in date order, when the engine gives them. */
  nightly: number[] | null;
  taxes: number | null;
  /** Fees the engine states apart from the room price (e.g. a destination fee), or null. */
  fees: number | null;
  /** Whether `total` includes taxes and fees, as the engine states it; null when it does not say. */
  taxes_and_fees_included: boolean | null;
  currency: string | null;
  /** Whether the rate can be cancelled free of charge, as the engine states it; null when it does not. */
  refundable: boolean | null;
  /** The engine's own cancellation or payment terms for the rate, verbatim (shortened), or null. */
  cancellation_policy: string | null;
  /** Member, loyalty, promotion or discount remarks the engine attaches to the rate. */
  discount_remarks: string[];
  /** A link that opens the engine on this stay (and room when the engine takes one), or null. */
  booking_url: string | null;
  /** Whether the engine offers this room for the stay (availability > 0, or a clean quote); null when it does not say. */
  bookable: boolean | null;
  upstream_rate_id: string | null;
  /** What `total` is and how it was obtained (the provenance fields). */
  price_basis: string;
  derivation: string;
}

/** What the fetch of one engine request returns: 404 and block pages are thrown by the caller; other statuses come back. */
interface EngineReply {
  status: number;
  text: string;
}

/** One request to an engine; `expect: 'html'` for a booking page fetched for its token or key. */
export type EngineCall = (url: string, init: SafeFetchInit & { expect?: 'json' | 'html' }) => Promise<EngineReply>;

export interface PricedEngine {
  id: string;
  /** The public endpoints the quote calls (paths under the engine's base), for the docs. */
  endpoints: string[];
  /** Whether the requested currency is sent upstream (and so recorded as requested). */
  sendsCurrency: boolean;
  /**
   * Party parts the engine's request states besides adults. A stay asking for children or rooms the
   * engine's request cannot state is refused (422) rather than priced for a smaller party.
   */
  party: { children: boolean; rooms: boolean };
  /** Why the engine cannot be priced with these settings (a missing registration), or null. */
  unavailable?(credentials: OfficialCredentials): string | null;
  quote(stay: EngineStay, call: EngineCall, ctx: EngineContext): Promise<EngineRoomOffer[]>;
}

/**
 * What a booking engine's quote is given and answers (the engine registry is engine-quotes.ts).
 * The engine files import only these types, so the registry never reads a half-loaded module.
 */
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';

export interface EngineStay {
  /** The hotel id the website's booking link carries (`detect.ts`). */
  propertyCode: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  adults: number;
  /** The caller's ISO currency, or null; only engines with `sendsCurrency` pass it on. */
  currency: string | null;
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
  currency: string | null;
  /** Whether the engine offers this room for the stay (availability > 0, or a clean quote); null when it does not say. */
  bookable: boolean | null;
  upstream_rate_id: string | null;
  /** What `total` is and how it was obtained (the provenance fields). */
  price_basis: string;
  derivation: string;
}

/** One request to an engine: 404 and block pages are thrown by the caller; other statuses come back. */
export type EngineCall = (url: string, init: SafeFetchInit) => Promise<{ status: number; text: string }>;

export interface PricedEngine {
  id: string;
  /** The public endpoints the quote calls, for the docs. */
  endpoints: string[];
  /** Whether the requested currency is sent upstream (and so recorded as requested). */
  sendsCurrency: boolean;
  quote(stay: EngineStay, call: EngineCall): Promise<EngineRoomOffer[]>;
}

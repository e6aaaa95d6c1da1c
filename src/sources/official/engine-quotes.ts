/**
 * Booking engines whose public availability endpoint is known and needs no credentials, keyed by
 * the engine id of `engines.ts`. Each engine quotes one stay through the `call` it is given (the
 * SSRF-safe fetcher, wrapped by `fetch.ts`), possibly in several requests, and keeps its reply
 * parsers pure and exported for the tests. One file per engine (`quote-<engine>.ts`); the engine
 * files import only types from here, so the registry below never reads a half-loaded module.
 */
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';
import { beds24 } from './quote-beds24.js';
import { cloudbeds } from './quote-cloudbeds.js';
import { siteminder } from './quote-siteminder.js';

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

export const PRICED_ENGINES: Record<string, PricedEngine> = { beds24, cloudbeds, siteminder };

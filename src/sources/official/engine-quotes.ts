/**
 * Booking engines whose public availability endpoint is known and needs no credentials, keyed by
 * the engine id of `engines.ts`: the request for one stay and the parser of the reply.
 *
 * beds24: `POST https://api.beds24.com/json/getAvailabilities` with `checkIn`/`checkOut`
 * (YYYYMMDD), `propId`, `numAdult`, `numChild` (no key: the vendor documents apiKey/propKey as not
 * needed). The reply is an object keyed by room id, `{roomId, roomsavail, price}`, `price` being
 * the stay total (returned only when numAdult is sent), beside request echoes such as `checkIn`.
 * Its currency is the property's own and is not stated in the reply.
 */
import { NotFound, UpstreamContractChanged } from '../../platform/errors.js';
import { num } from '../shared/json-values.js';
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';

type Json = any;

export interface EngineStay {
  propertyCode: string;
  checkIn: string;
  checkOut: string;
  adults: number;
}

export interface EngineRoomOffer {
  room_id: string;
  rooms_available: number | null;
  total: number | null;
  currency: string | null;
}

export interface PricedEngine {
  id: string;
  /** The public endpoint the request goes to. */
  endpoint: string;
  request(stay: EngineStay): SafeFetchInit;
  parse(body: string, stay: EngineStay): EngineRoomOffer[];
}

const compact = (date: string) => date.replace(/-/g, '');

const beds24: PricedEngine = {
  id: 'beds24',
  endpoint: 'https://api.beds24.com/json/getAvailabilities',
  request: (stay) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      checkIn: compact(stay.checkIn),
      checkOut: compact(stay.checkOut),
      propId: stay.propertyCode,
      numAdult: String(stay.adults),
      numChild: '0',
    }),
  }),
  parse(body, stay) {
    let reply: Json;
    try {
      reply = JSON.parse(body);
    } catch {
      throw new UpstreamContractChanged('official', 'beds24 availability reply is not JSON');
    }
    if (reply && typeof reply === 'object' && !Array.isArray(reply) && typeof reply.error === 'string') {
      if (/not found|no property|invalid prop/i.test(reply.error)) throw new NotFound(`beds24 property ${stay.propertyCode} not found`);
      throw new UpstreamContractChanged('official', `beds24 error: ${reply.error.slice(0, 120)}`);
    }
    const rows: Json[] = Array.isArray(reply) ? reply : reply && typeof reply === 'object' ? Object.values(reply) : [];
    if (!reply || typeof reply !== 'object') throw new UpstreamContractChanged('official', 'beds24 availability object');
    return rows
      .filter((r) => r && typeof r === 'object' && (r.roomId != null || r.roomsavail != null))
      .map((r) => ({ room_id: String(r.roomId ?? ''), rooms_available: num(r.roomsavail), total: num(r.price), currency: null }));
  },
};

export const PRICED_ENGINES: Record<string, PricedEngine> = { beds24 };

/**
 * Beds24: `POST https://api.beds24.com/json/getAvailabilities` with `checkIn`/`checkOut`
 * (YYYYMMDD), `propId`, `numAdult`, `numChild` (no key: the vendor documents apiKey/propKey as not
 * needed). The reply is an object keyed by room id, `{roomId, roomsavail, price}`, `price` being
 * the stay total (returned only when numAdult is sent), beside request echoes such as `checkIn`.
 * Its currency is the property's own and is not stated in the reply.
 */
import { NotFound, UpstreamContractChanged, UpstreamFailed, UpstreamRateLimited } from '../../domain/errors.js';
import type { SafeFetchInit } from '../../upstream/safe-fetch.js';
import { isObject, numeric, text } from '../../domain/json.js';
import { assertStayAnswered } from '../shared/stay.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED } from './engine-shared.js';

const PATH = '/json/getAvailabilities';

const compact = (date: string) => date.replace(/-/g, '');

export function beds24Request(stay: EngineStay): SafeFetchInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      checkIn: compact(stay.checkIn),
      checkOut: compact(stay.checkOut),
      propId: stay.propertyCode,
      numAdult: String(stay.adults),
      numChild: String(stay.children),
    }),
  };
}

/** `20270310` → `2027-03-10`; null for anything else. */
function compactDate(v: unknown): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text(v));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/**
 * The rooms of a `getAvailabilities` reply; an error naming the property is a 404, and a reply
 * echoing other stay dates than asked is a 502 (StayMismatch).
 */
export function parseBeds24Availability(body: string, stay: Pick<EngineStay, 'propertyCode' | 'checkIn' | 'checkOut'>): EngineRoomOffer[] {
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    // not JSON at all is not a reply of the expected kind: unusable (502), not a changed contract
    throw new UpstreamFailed('UnreadableReply (beds24 availability)', 'unusable');
  }
  if (isObject(reply) && typeof reply.error === 'string') {
    if (/not found|no property|invalid prop/i.test(reply.error)) throw new NotFound(`beds24 property ${stay.propertyCode} not found`);
    if (/too many requests|rate limit/i.test(reply.error)) throw new UpstreamRateLimited(null);
    throw new UpstreamContractChanged('official', `beds24 error: ${reply.error.slice(0, 120)}`);
  }
  if (!reply || typeof reply !== 'object') throw new UpstreamContractChanged('official', 'beds24 availability object');
  if (isObject(reply)) assertStayAnswered(stay, { checkIn: compactDate(reply.checkIn), checkOut: compactDate(reply.checkOut) });
  const rows = (Array.isArray(reply) ? reply : Object.values(reply)).filter(isObject).filter((r) => r.roomId != null || r.roomsavail != null);
  // a reply of this endpoint echoes the stay or lists rooms: an object with neither is another shape
  if (isObject(reply) && reply.checkIn === undefined && rows.length === 0 && Object.keys(reply).length > 0) {
    throw new UpstreamContractChanged('official', 'beds24 availability carries neither the stay echo nor a room');
  }
  return rows.map((r) => {
    const roomId = text(r, 'roomId');
    const available = numeric(r.roomsavail);
    return {
      room_id: roomId,
      room_name: null,
      rate_name: null,
      rooms_available: available,
      total: numeric(r.price),
      nightly: null,
      taxes: null,
      ...UNSTATED,
      currency: null,
      bookable: available != null ? available > 0 : null,
      upstream_rate_id: roomId || null,
      price_basis: 'stay_total_as_quoted',
      derivation: 'upstream',
    };
  });
}

export const beds24: PricedEngine = {
  id: 'beds24',
  endpoints: [PATH],
  sendsCurrency: false,
  party: { children: true, rooms: false },
  async quote(stay, call, { base }) {
    const reply = await call(base + PATH, beds24Request(stay));
    if (reply.status >= 400) throw new UpstreamFailed(`EngineHttp${reply.status}`);
    return parseBeds24Availability(reply.text, stay);
  },
};

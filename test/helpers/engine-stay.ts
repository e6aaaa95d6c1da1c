/** The stay and context the booking-engine quote tests share: 2027-03-10 → 2027-03-12, 2 adults. */
import { NO_CREDENTIALS, type OfficialCredentials } from '../../src/config/engine-credentials.js';
import type { EngineContext, EngineStay } from '../../src/sources/official/engine-types.js';

export function engineStay(over: Partial<EngineStay> & Pick<EngineStay, 'propertyCode'>): EngineStay {
  return {
    chainCode: null,
    bookingUrl: null,
    checkIn: '2027-03-10',
    checkOut: '2027-03-12',
    nights: 2,
    adults: 2,
    children: 0,
    rooms: 1,
    currency: 'EUR',
    language: 'en',
    ...over,
  };
}

export const engineContext = (base: string, credentials: Partial<OfficialCredentials> = {}): EngineContext => ({ base, ...NO_CREDENTIALS, ...credentials });

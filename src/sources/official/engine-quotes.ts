/**
 * Booking engines whose public availability requests are known (from public clients, recordings or
 * the vendor's documentation; test/fixtures/README.md), keyed by the engine id of `engines.ts`. Each
 * engine quotes one stay through the `call` it is given (the SSRF-safe fetcher, wrapped by
 * `engine-call.ts`), possibly in several requests, against the base URL of config/hosts.ts's
 * OFFICIAL_ENGINE_HOSTS, and keeps its reply parsers pure and exported for the tests. One file per
 * engine (`quote-<engine>.ts`); what they share is in engine-types.ts.
 */
import type { OfficialEngineId } from '../../config/hosts.js';
import type { PricedEngine } from './engine-types.js';
import { beds24 } from './quote-beds24.js';
import { checkfront } from './quote-checkfront.js';
import { cloudbeds } from './quote-cloudbeds.js';
import { ezee } from './quote-ezee.js';
import { hostaway } from './quote-hostaway.js';
import { littleHotelier } from './quote-little-hotelier.js';
import { lodgify } from './quote-lodgify.js';
import { mews } from './quote-mews.js';
import { newbook } from './quote-newbook.js';
import { profitroom } from './quote-profitroom.js';
import { rmsCloud } from './quote-rms.js';
import { siteminder } from './quote-siteminder.js';
import { smoobu } from './quote-smoobu.js';
import { synxis } from './quote-synxis.js';
import { wubook } from './quote-wubook.js';

// the tests and the docs read the engines' types from the registry
export type { EngineStay, PricedEngine } from './engine-types.js';

/** Every engine with a host in OFFICIAL_ENGINE_HOSTS, and no other (the compiler checks both ways). */
export const PRICED_ENGINES: Record<OfficialEngineId, PricedEngine> = {
  beds24,
  cloudbeds,
  siteminder,
  'little-hotelier': littleHotelier,
  profitroom,
  synxis,
  mews,
  ezee,
  lodgify,
  checkfront,
  smoobu,
  hostaway,
  newbook,
  wubook,
  'rms-cloud': rmsCloud,
};

export function pricedEngine(id: string): PricedEngine | null {
  return Object.hasOwn(PRICED_ENGINES, id) ? PRICED_ENGINES[id as OfficialEngineId] : null;
}

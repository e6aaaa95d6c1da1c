/**
 * Booking engines whose public availability endpoint is known and needs no credentials, keyed by
 * the engine id of `engines.ts`. Each engine quotes one stay through the `call` it is given (the
 * SSRF-safe fetcher, wrapped by `fetch.ts`), possibly in several requests, and keeps its reply
 * parsers pure and exported for the tests. One file per engine (`quote-<engine>.ts`); what they
 * share is in engine-types.ts.
 */
import type { PricedEngine } from './engine-types.js';
import { beds24 } from './quote-beds24.js';
import { cloudbeds } from './quote-cloudbeds.js';
import { siteminder } from './quote-siteminder.js';

// the tests and the docs read the engines' types from the registry
export type { EngineStay, PricedEngine } from './engine-types.js';

export const PRICED_ENGINES: Record<string, PricedEngine> = { beds24, cloudbeds, siteminder };

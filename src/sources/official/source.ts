import type { SourceManifest } from '../manifest.js';
import { officialCompare } from './compare.js';

/** A hotel's own website and the booking engine behind it (engines.ts), reached through safe-fetch. */
export const officialSource: SourceManifest = {
  alias: 'official',
  realName: "the hotel's own website and its booking engine",
  hosts: null,
  check: null,
  compare: officialCompare,
  guards: null,
};

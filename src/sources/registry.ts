import type { Alias } from '../config/hosts.js';
import type { CompareEntry, SourceManifest } from './manifest.js';
import { appsSource } from './apps/source.js';
import { careersSource } from './careers/source.js';
import { hostelSource } from './hostel/source.js';
import { metasearchSource } from './metasearch/source.js';
import { networkSource } from './network/source.js';
import { officialSource } from './official/source.js';
import { otafourSource } from './otafour/source.js';
import { otaoneSource } from './otaone/source.js';
import { otathreeSource } from './otathree/source.js';
import { otatwoSource } from './otatwo/source.js';
import { rentaloneSource } from './rentalone/source.js';
import { rentaltwoSource } from './rentaltwo/source.js';
import { retailSource } from './retail/source.js';
import { travelreviewSource } from './travelreview/source.js';
import { trendsSource } from './trends/source.js';
import { videoSource } from './video/source.js';

/**
 * Every source, one line each, in the order the operator's live checks and a comparison list them.
 * The live checks (doors/ops/canonical-checks.ts), the comparison's sources and its input
 * (compare/compare.ts, tools/compare.ts) are built from here.
 */
const REGISTRY = {
  metasearch: metasearchSource,
  official: officialSource,
  otaone: otaoneSource,
  otatwo: otatwoSource,
  otathree: otathreeSource,
  otafour: otafourSource,
  rentalone: rentaloneSource,
  rentaltwo: rentaltwoSource,
  travelreview: travelreviewSource,
  hostel: hostelSource,
  network: networkSource,
  video: videoSource,
  apps: appsSource,
  retail: retailSource,
  trends: trendsSource,
  careers: careersSource,
} satisfies Record<string, SourceManifest>;

/** An upstream of config/hosts.ts without its manifest here fails to compile. */
const everyUpstream: Exclude<Alias, keyof typeof REGISTRY> extends never ? true : never = true;
void everyUpstream;

export const SOURCES: readonly SourceManifest[] = Object.values(REGISTRY);

/** The sources a comparison can price, with their entries, in the registry's order. */
export const COMPARED: readonly (readonly [string, CompareEntry])[] = SOURCES.flatMap((s) => (s.compare ? [[s.alias, s.compare] as const] : []));

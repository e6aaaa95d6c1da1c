import { z } from 'zod';
import { SOURCE_NAMES } from '../domain/source-names.js';

/**
 * What is known of each upstream before any source code runs, as data: which real site the alias
 * is (its name from domain/source-names.ts, the one table of real names), its base URL and the hosts its pages load from. It sits in config, below the sources, because
 * the settings (`UPSTREAM_<ALIAS>_URL`, `UPSTREAM_<ALIAS>_MODE`), the upstream client, the browser
 * path and the outcome store read it; each source's manifest (src/sources/<alias>/source.ts) names
 * its entry and adds what only the source knows (its live check, its compare runner), and
 * src/sources/registry.ts gathers the manifests (its type check fails while an entry has none).
 * Regional or country domains are not listed: the sources select market and currency with query
 * parameters on these bases. `allowed`: the hosts a page of the source loads from besides its base
 * URL, for the browser path (which allows no others): the site's own subdomains and its static-asset
 * domains; `*.x` is x and every subdomain.
 */
export const SOURCE_HOSTS = {
  metasearch: { realName: SOURCE_NAMES.metasearch, base: 'https://www.google.com', allowed: ['*.google.com', '*.gstatic.com'] },
  otaone: { realName: SOURCE_NAMES.otaone, base: 'https://www.booking.com', allowed: ['*.booking.com', '*.bstatic.com'] },
  otatwo: { realName: SOURCE_NAMES.otatwo, base: 'https://www.expedia.com', allowed: ['*.expedia.com', '*.travel-assets.com'] },
  // Hotels.com: the Expedia-Group brand whose points of sale include US and CA.
  otathree: { realName: SOURCE_NAMES.otathree, base: 'https://www.hotels.com', allowed: ['*.hotels.com', '*.travel-assets.com'] },
  otafour: { realName: SOURCE_NAMES.otafour, base: 'https://www.agoda.com', allowed: ['*.agoda.com', '*.agoda.net'] },
  rentalone: { realName: SOURCE_NAMES.rentalone, base: 'https://www.vrbo.com', allowed: ['*.vrbo.com', '*.travel-assets.com'] },
  rentaltwo: { realName: SOURCE_NAMES.rentaltwo, base: 'https://www.airbnb.com', allowed: ['*.airbnb.com', '*.muscache.com'] },
  // the travel-review metasearch is reached through its public MCP server (see src/sources/travelreview/README.md)
  travelreview: { realName: SOURCE_NAMES.travelreview, base: 'https://mcp.trivago.com', allowed: ['*.trivago.com'] },
  // Hostelworld's data lives on its API gateway (autocomplete, city properties, availability),
  // not on www.hostelworld.com; the recorded payloads come from this host.
  hostel: { realName: SOURCE_NAMES.hostel, base: 'https://prod.apigee.hostelworld.com', allowed: ['*.hostelworld.com'] },
  network: { realName: SOURCE_NAMES.network, base: 'https://www.linkedin.com', allowed: ['*.linkedin.com', '*.licdn.com'] },
  video: { realName: SOURCE_NAMES.video, base: 'https://www.youtube.com', allowed: ['*.youtube.com', '*.ytimg.com'] },
  // The iTunes lookup/search API and the customer-reviews RSS both live on this host.
  apps: { realName: SOURCE_NAMES.apps, base: 'https://itunes.apple.com', allowed: ['*.apple.com', '*.mzstatic.com'] },
  retail: { realName: SOURCE_NAMES.retail, base: 'https://www.walmart.com', allowed: ['*.walmart.com', '*.walmartimages.com'] },
  trends: { realName: SOURCE_NAMES.trends, base: 'https://trends.google.com', allowed: ['*.google.com', '*.gstatic.com'] },
} as const satisfies Record<string, SourceHost>;

export interface SourceHost {
  /** The real platform behind the alias (the aliases are the public names). */
  realName: string;
  /** Its base URL, overridable as `UPSTREAM_<ALIAS>_URL`. */
  base: string;
  /** The hosts its pages load from besides the base URL (the browser path allows no others). */
  allowed: readonly string[];
}

/** Upstream aliases reached through UpstreamClient (careers and official sites go through safe-fetch). */
export type Alias = keyof typeof SOURCE_HOSTS;
export const ALIASES = Object.keys(SOURCE_HOSTS) as Alias[];

/** Whether a name is one of the aliases (a live check or an outcome row names its source as text). */
export function isAlias(value: string): value is Alias {
  return (ALIASES as readonly string[]).includes(value);
}

const eachAlias = <T>(pick: (h: SourceHost) => T) => Object.fromEntries(ALIASES.map((a) => [a, pick(SOURCE_HOSTS[a])])) as Record<Alias, T>;

/** The real site's base URL per alias. */
export const UPSTREAM_HOSTS: Record<Alias, string> = eachAlias((h) => h.base);

export type HostEnvName<A extends string = Alias> = `UPSTREAM_${Uppercase<A>}_URL`;

export function hostEnvName<A extends Alias>(alias: A): HostEnvName<A> {
  return `UPSTREAM_${alias.toUpperCase()}_URL` as HostEnvName<A>;
}

const httpUrl = z.url({ protocol: /^https?$/ });

/** Zod fields for the per-alias overrides, spread into the config schema. */
export const HOST_OVERRIDE_FIELDS = Object.fromEntries(ALIASES.map((a) => [hostEnvName(a), httpUrl.optional()])) as {
  [A in Alias as HostEnvName<A>]: z.ZodOptional<typeof httpUrl>;
};

export const HOST_OVERRIDE_DOC = Object.fromEntries(ALIASES.map((a) => [hostEnvName(a), `base URL of the ${a} upstream (default ${UPSTREAM_HOSTS[a]})`])) as {
  [A in Alias as HostEnvName<A>]: string;
};

/** Base URL per alias: the override `UPSTREAM_<ALIAS>_URL` when set, else the real site; no trailing slash. */
export function resolveHosts(env: Readonly<Record<string, unknown>>): Record<Alias, string> {
  const out = {} as Record<Alias, string>;
  for (const alias of ALIASES) {
    const override = env[hostEnvName(alias)];
    const base = typeof override === 'string' && override.trim() !== '' ? override.trim() : UPSTREAM_HOSTS[alias];
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${hostEnvName(alias)} must be an http(s) URL`);
    out[alias] = base.replace(/\/+$/, '');
  }
  return out;
}

/**
 * The hotels' own booking engines that `POST /v1/official` prices (the `official` source): engine
 * id → the base URL its quote requests go to. One data table; `UPSTREAM_OFFICIAL_<ENGINE>_URL`
 * (`little-hotelier` → `UPSTREAM_OFFICIAL_LITTLE_HOTELIER_URL`) sends one engine elsewhere (a
 * test double, a proxy). `regional`: the engine runs one instance per region on subdomains of this
 * domain (`apac.littlehotelier.com`), and the hotel's booking link names its instance; without an
 * override, a link on such a subdomain is quoted on that subdomain instead of `url`. `account`: the
 * engine serves each account on its own subdomain of this domain (`<account>.checkfront.com`), the
 * account being the hotel id detection yields; without an override the quote goes there.
 */
export const OFFICIAL_ENGINE_HOSTS = {
  beds24: { url: 'https://api.beds24.com' },
  cloudbeds: { url: 'https://hotels.cloudbeds.com' },
  siteminder: { url: 'https://direct-book.com' },
  'little-hotelier': { url: 'https://app.littlehotelier.com', regional: 'littlehotelier.com' },
  profitroom: { url: 'https://booking.profitroom.com' },
  synxis: { url: 'https://be.synxis.com' },
  mews: { url: 'https://api.mews.com' },
  ezee: { url: 'https://live.ipms247.com' },
  lodgify: { url: 'https://api.lodgify.com' },
  checkfront: { url: 'https://checkfront.com', account: 'checkfront.com' },
  smoobu: { url: 'https://login.smoobu.com' },
  hostaway: { url: 'https://api.hostaway.com' },
  newbook: { url: 'https://api.newbook.cloud' },
  wubook: { url: 'https://wired.wubook.net' },
  'rms-cloud': { url: 'https://restapi8.rmscloud.com' },
} as const satisfies Record<string, { url: string; regional?: string; account?: string }>;

export type OfficialEngineId = keyof typeof OFFICIAL_ENGINE_HOSTS;
export const OFFICIAL_ENGINE_IDS = Object.keys(OFFICIAL_ENGINE_HOSTS) as OfficialEngineId[];

type Underscored<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Underscored<B>}` : S;
type EngineEnvName<E extends string> = `UPSTREAM_OFFICIAL_${Underscored<Uppercase<E>>}_URL`;

export function officialEngineEnvName<E extends OfficialEngineId>(engine: E): EngineEnvName<E> {
  return `UPSTREAM_OFFICIAL_${engine.toUpperCase().replace(/-/g, '_')}_URL` as EngineEnvName<E>;
}

/** Zod fields of the per-engine overrides, spread into the config schema. */
export const OFFICIAL_ENGINE_HOST_FIELDS = Object.fromEntries(OFFICIAL_ENGINE_IDS.map((e) => [officialEngineEnvName(e), httpUrl.optional()])) as {
  [E in OfficialEngineId as EngineEnvName<E>]: z.ZodOptional<typeof httpUrl>;
};

export const OFFICIAL_ENGINE_HOST_DOC = Object.fromEntries(
  OFFICIAL_ENGINE_IDS.map((e) => {
    const spec: { url: string; regional?: string; account?: string } = OFFICIAL_ENGINE_HOSTS[e];
    const regional = spec.regional ? `; unset, a hotel's regional host on ${spec.regional} from its booking link` : '';
    const account = spec.account ? `https://<account>.${spec.account}, the account detected on the hotel's site` : spec.url;
    return [officialEngineEnvName(e), `base URL of the ${e} booking engine's quote requests (default ${account}${regional})`];
  }),
) as { [E in OfficialEngineId as EngineEnvName<E>]: string };

/** Where one engine's quote requests go: its override, or its default with the regional rule. */
export interface OfficialEngineHost {
  url: string;
  overridden: boolean;
  regional: string | null;
  account: string | null;
}

export function resolveOfficialEngineHosts(env: Readonly<Record<string, unknown>>): Record<OfficialEngineId, OfficialEngineHost> {
  const out = {} as Record<OfficialEngineId, OfficialEngineHost>;
  for (const engine of OFFICIAL_ENGINE_IDS) {
    const spec: { url: string; regional?: string; account?: string } = OFFICIAL_ENGINE_HOSTS[engine];
    const override = env[officialEngineEnvName(engine)];
    const set = typeof override === 'string' && override.trim() !== '';
    out[engine] = {
      url: (set ? override.trim() : spec.url).replace(/\/+$/, ''),
      overridden: set,
      regional: spec.regional ?? null,
      account: spec.account ?? null,
    };
  }
  return out;
}

/**
 * The base URL of one quote: the override when set; else, for an engine serving each account on
 * its own subdomain, the detected account's (a DNS label, or the default); for a regional engine
 * whose booking link is on one of its regional subdomains, that subdomain; else the default.
 */
export function officialEngineBase(host: OfficialEngineHost, bookingUrl: string | null, hotelId: string | null = null): string {
  if (host.overridden) return host.url;
  if (host.account) return hotelId && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(hotelId) ? `https://${hotelId.toLowerCase()}.${host.account}` : host.url;
  if (!host.regional || !bookingUrl) return host.url;
  const link = new URL(bookingUrl);
  const name = link.hostname.toLowerCase();
  return link.protocol === 'https:' && name.endsWith(`.${host.regional}`) ? `https://${name}` : host.url;
}

/** Hosts a source's pages load from besides its base URL, for the browser path. */
export const BROWSER_HOSTS: Record<Alias, readonly string[]> = eachAlias((h) => h.allowed);

/** Where the bot walls in front of the sites serve their challenge scripts (blocked.ts names them). */
export const CHALLENGE_HOSTS = [
  'challenges.cloudflare.com',
  '*.captcha-delivery.com',
  'js.datadome.co',
  '*.awswaf.com',
  '*.perimeterx.net',
  '*.px-cdn.net',
  '*.px-cloud.net',
];

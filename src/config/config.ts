import path from 'node:path';
import { z } from 'zod';
import { EGRESS_MODES } from '../domain/egress-modes.js';
import { MCP_TOOL_SETS } from '../domain/mcp-tool-sets.js';
import { parsePosContexts, parseQueryHashes } from './group-settings.js';
import {
  HOST_OVERRIDE_DOC,
  HOST_OVERRIDE_FIELDS,
  OFFICIAL_ENGINE_HOST_DOC,
  OFFICIAL_ENGINE_HOST_FIELDS,
  resolveHosts,
  resolveOfficialEngineHosts,
  type Alias,
  type OfficialEngineHost,
  type OfficialEngineId,
} from './hosts.js';
import { assertProxyUrl, parseMarketProxies } from './proxies.js';
import { parseRetrySchedule, STANDARD_RETRY_SCHEDULE, webhookSigningKey } from './webhook-settings.js';
import { MODE_DOC, MODE_FIELDS, resolveModes, type UpstreamMode } from './upstream-modes.js';
import { CACHE_DOC, CACHE_FIELDS, resolveCacheSettings, type CacheSettings } from './cache-settings.js';
import {
  OFFICIAL_CREDENTIALS_DOC,
  parseEzeeKeys,
  parseHostawayKeys,
  parseLodgifyKeys,
  parseNewbookKeys,
  parseRmsKeys,
  parseSmoobuKeys,
  parseWubookKeys,
  resolveOfficialCredentials,
  type OfficialCredentials,
} from './engine-credentials.js';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A structured setting, parsed and checked by `parse` at start; its error names the expected shape. */
function parsedSetting<T>(parse: (text: string) => T, fallback: string, shape: string) {
  return z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: shape ? `${shape}: ${(err as Error).message}` : (err as Error).message });
        return z.NEVER;
      }
    });
}

const jsonSetting = <T>(parse: (json: string) => T, shape: string) => parsedSetting(parse, '{}', shape);

function parseHostMap(json: string): Record<string, string> {
  const parsed = JSON.parse(json) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string'))
    throw new Error('not an object of strings');
  return parsed as Record<string, string>;
}

/** Every setting, mapped to its environment variable. Parsed once at start. */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().default('127.0.0.1'),
  NODE_ENV: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  EMBEDDED_PG_SYSTEM_DIR: z.string().default('/var/lib/hotelrates'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CREDITS_MODE: z.enum(['off', 'shadow', 'enforce']).default('shadow'),
  DEFAULT_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(60),
  PUBLIC_BASE_URL: z.string().url().optional(),
  MCP_ALLOWED_HOSTS: z.string().optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  MCP_TOOL_SETS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && s !== 'none'),
    )
    .pipe(z.array(z.enum(MCP_TOOL_SETS))),
  BOOTSTRAP_KEY: bool.default(true),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(25),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  UPSTREAM_RETRIES: z.coerce.number().int().min(0).max(6).default(2),
  UPSTREAM_BACKOFF_MS: z.coerce.number().int().min(0).max(30_000).default(400),
  EGRESS_MODE: z.enum(EGRESS_MODES).default('direct'),
  MARKET_PROXIES: parsedSetting(parseMarketProxies, '', ''),
  DEFAULT_PROXY_URL: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        assertProxyUrl(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  SAFE_FETCH_ALLOW_PRIVATE: bool.default(false),
  TRUST_PROXY: z.string().optional(),
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  UPSTREAM_BROWSER_CONTEXTS: z.coerce.number().int().min(1).max(16).default(2),
  UPSTREAM_BROWSER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  UPSTREAM_BROWSER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  UPSTREAM_BROWSER_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(256),
  UPSTREAM_BROWSER_RECYCLE_PAGES: z.coerce.number().int().min(1).max(100_000).default(100),
  UPSTREAM_BROWSER_IDLE_CLOSE_S: z.coerce.number().int().min(0).max(86_400).default(300),
  UPSTREAM_BROWSER_WARM_S: z.coerce.number().int().min(0).max(3600).default(60),
  UPSTREAM_BROWSER_ALLOW_PRIVATE: bool.default(false),
  UPSTREAM_CLEARANCE_REUSE: bool.default(true),
  UPSTREAM_CLEARANCE_MAX_AGE_S: z.coerce.number().int().min(60).max(259_200).default(21_600),
  ATS_HOST_OVERRIDES: jsonSetting(parseHostMap, 'must be a JSON object of host to base URL'),
  GROUP_POS_CONTEXTS: jsonSetting(parsePosContexts, 'must be a JSON object of brand to market to context'),
  GROUP_QUERY_HASHES: jsonSetting(parseQueryHashes, 'must be a JSON object of operation name to sha256'),
  RUN_WORKER: bool.default(true),
  STDIO_RUN_WORKER: bool.default(false),
  FIRST_KEY_FROM_ENV: bool.default(false),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  JOB_MIN_EXPIRY_S: z.coerce.number().int().min(1).max(3600).default(60),
  JOB_MAX_EXPIRY_S: z.coerce.number().int().min(1).max(86_400).default(3600),
  QUEUE_MAINTENANCE_S: z.coerce.number().int().min(1).max(3600).default(30),
  WEBHOOK_SIGNING_SECRET: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        webhookSigningKey(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  WEBHOOK_RETRY_SCHEDULE_S: parsedSetting(parseRetrySchedule, STANDARD_RETRY_SCHEDULE, 'must be delays in seconds, comma-separated, or none'),
  WATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WATCH_SWEEP_S: z.coerce.number().int().min(1).max(3600).default(60),
  WATCH_HOUR_S: z.coerce.number().int().min(1).max(3600).default(3600),
  WATCH_FAILING_AFTER: z.coerce.number().int().min(1).max(1000).default(3),
  WATCH_TODAY: z.iso.date().optional(),
  OAUTH_ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(60).max(86_400).default(900),
  OAUTH_REFRESH_TOKEN_TTL_S: z.coerce.number().int().min(3600).max(31_536_000).default(2_592_000),
  OAUTH_REGISTRATIONS_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(120),
  OAUTH_REGISTRATIONS_PER_IP_PER_MIN: z.coerce.number().int().min(1).max(100_000).default(20),
  OAUTH_PENDING_CLIENTS_MAX: z.coerce.number().int().min(10).max(1_000_000).default(1000),
  SEARCH_ARCHIVE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  ...CACHE_FIELDS,
  ...HOST_OVERRIDE_FIELDS,
  ...OFFICIAL_ENGINE_HOST_FIELDS,
  OFFICIAL_MEWS_CLIENT: z.string().trim().min(1).max(200).optional(),
  OFFICIAL_EZEE_KEYS: parsedSetting(parseEzeeKeys, '', 'must be slug=hotelCode:apiKey, comma-separated'),
  OFFICIAL_LODGIFY_KEYS: parsedSetting(parseLodgifyKeys, '', 'must be propertyId=apiKey, comma-separated'),
  OFFICIAL_SMOOBU_KEYS: parsedSetting(parseSmoobuKeys, '', 'must be customerId=apiKey:apiSecret, comma-separated'),
  OFFICIAL_HOSTAWAY_KEYS: parsedSetting(parseHostawayKeys, '', 'must be listingId=accessToken, comma-separated'),
  OFFICIAL_NEWBOOK_KEYS: parsedSetting(parseNewbookKeys, '', 'must be instance=region:username:password:apiKey, comma-separated'),
  OFFICIAL_WUBOOK_KEYS: parsedSetting(parseWubookKeys, '', 'must be lcode=token, comma-separated'),
  OFFICIAL_RMS_KEYS: parsedSetting(parseRmsKeys, '', 'must be linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId, comma-separated'),
  ...MODE_FIELDS,
});

export type RawConfig = z.infer<typeof ConfigSchema>;

export interface Config extends RawConfig {
  dataDir: string;
  /** Hostnames /mcp accepts in Host (DNS-rebinding protection); null: any. */
  mcpAllowedHosts: string[] | null;
  /** Origin hostnames /mcp accepts when a browser sends Origin; null: any. */
  mcpAllowedOrigins: string[] | null;
  /** Base URL per upstream alias, after `UPSTREAM_<ALIAS>_URL` overrides. */
  upstreamHosts: Record<Alias, string>;
  /** Base URL per priced booking engine, after `UPSTREAM_OFFICIAL_<ENGINE>_URL` overrides. */
  officialEngineHosts: Record<OfficialEngineId, OfficialEngineHost>;
  /** What the engines that cannot be asked anonymously need (Mews's client, eZee hotels' keys). */
  officialCredentials: OfficialCredentials;
  /** How each alias is reached (`UPSTREAM_<ALIAS>_MODE`). */
  upstreamModes: Record<Alias, UpstreamMode>;
  /** The result cache's settings (RESULT_CACHE_*). */
  resultCache: CacheSettings;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(ConfigSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  if (data.EGRESS_MODE !== 'direct' && !data.DEFAULT_PROXY_URL && Object.keys(data.MARKET_PROXIES).length === 0) {
    throw new ConfigError(`invalid configuration:\n  EGRESS_MODE: ${data.EGRESS_MODE} needs MARKET_PROXIES or DEFAULT_PROXY_URL`);
  }
  const mcpHosts = allowList(data.MCP_ALLOWED_HOSTS, data.PUBLIC_BASE_URL);
  return {
    ...data,
    dataDir: path.resolve(data.DATA_DIR),
    upstreamHosts: resolveHosts(data),
    officialEngineHosts: resolveOfficialEngineHosts(data),
    officialCredentials: resolveOfficialCredentials(data),
    upstreamModes: resolveModes(data),
    resultCache: resolveCacheSettings(data),
    mcpAllowedHosts: mcpHosts,
    mcpAllowedOrigins: data.MCP_ALLOWED_ORIGINS === undefined ? mcpHosts : allowList(data.MCP_ALLOWED_ORIGINS, data.PUBLIC_BASE_URL),
  };
}

const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A comma-separated hostname list; unset: the loopback names and PUBLIC_BASE_URL's host; `*`: no check. */
function allowList(value: string | undefined, publicBaseUrl: string | undefined): string[] | null {
  if (value?.trim() === '*') return null;
  if (value !== undefined)
    return value
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
  return publicBaseUrl ? [...LOCALHOST_NAMES, new URL(publicBaseUrl).hostname.toLowerCase()] : LOCALHOST_NAMES;
}

const LOOPBACK_BIND = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

/** Why this start serves more than this machine (and so needs PUBLIC_BASE_URL), or null on a loopback start. */
function productionReason(config: Pick<Config, 'NODE_ENV' | 'HOST' | 'TRUST_PROXY'>): string | null {
  if (config.NODE_ENV === 'production') return 'NODE_ENV=production';
  if (!LOOPBACK_BIND.test(config.HOST)) return `HOST=${config.HOST} is not a loopback address`;
  if (config.TRUST_PROXY) return 'TRUST_PROXY is set (the service is behind a reverse proxy)';
  return null;
}

/**
 * The HTTP service's own check at start: in production the OAuth issuer, the /mcp resource and
 * every link are PUBLIC_BASE_URL, never a request's Host header, so the start is refused without it.
 */
export function assertPublicBaseUrl(config: Pick<Config, 'NODE_ENV' | 'HOST' | 'TRUST_PROXY' | 'PUBLIC_BASE_URL'>): void {
  const reason = productionReason(config);
  if (reason && !config.PUBLIC_BASE_URL) {
    throw new ConfigError(
      `invalid configuration:\n  PUBLIC_BASE_URL: required in production (${reason}): set it to the public origin, e.g. https://api.example.com, ` +
        "so that the OAuth issuer and links never follow a request's Host header (or set HOST=127.0.0.1 to serve this machine only)",
    );
  }
}

/** For entry points: the configuration, or the reason it is invalid on stderr and exit code 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/** Names and meanings of every setting, for the README and `--help`. */
export const CONFIG_DOC: Record<keyof RawConfig, string> = {
  PORT: 'HTTP port (0 picks a free one)',
  WORKER_PORT: '`npm run worker`: the port of its /metrics and /healthz (on HOST; 0 picks a free one)',
  HOST: 'listen address; the default serves this machine only. Any other address (0.0.0.0 to serve the network) is a production start: it needs PUBLIC_BASE_URL',
  NODE_ENV: '`production` makes every start a production start: it needs PUBLIC_BASE_URL',
  DATABASE_URL: 'external PostgreSQL ≥ 14; unset starts the embedded one',
  DATA_DIR: 'data directory (embedded database, diagnostics); per process, never shared between hosts',
  EMBEDDED_PG_PORT: 'port of the embedded PostgreSQL',
  EMBEDDED_PG_SYSTEM_DIR:
    'started as root only: where the embedded PostgreSQL (a copy of its programs, and the cluster, linked from DATA_DIR/pg) goes when its unprivileged postgres user cannot reach node_modules or DATA_DIR, e.g. a repository under /root (mode 0700)',
  LOG_LEVEL: 'pino log level',
  CREDITS_MODE: 'off | shadow | enforce',
  DEFAULT_RATE_LIMIT_PER_MIN: 'rate limit of new keys',
  PUBLIC_BASE_URL:
    "the service's public origin (https://api.example.com): printed at start, used in links, the OAuth issuer and the /mcp resource identifier. Required in production (NODE_ENV=production, a HOST other than loopback, or TRUST_PROXY set): the start is refused without it. Unset on a loopback start, they are http://127.0.0.1:<port> (or localhost / [::1] as the request named it), never another Host",
  MCP_ALLOWED_HOSTS:
    'hostnames (comma-separated, any port) /mcp accepts in the Host header, against DNS rebinding; default localhost, 127.0.0.1, [::1] and the host of PUBLIC_BASE_URL; * turns the check off (e.g. behind a proxy that checks)',
  MCP_ALLOWED_ORIGINS:
    "hostnames /mcp accepts in a browser's Origin header (a request without Origin passes); default MCP_ALLOWED_HOSTS; * turns the check off",
  MCP_TOOL_SETS:
    'opt-in MCP tool sets every caller lists and calls beside the default 18 read-only tools (comma-separated: watches); one key gets them with `npm run keys -- tool-sets`; default none',
  BOOTSTRAP_KEY: 'create and print a first key when none exists',
  DB_POOL_MAX: 'PostgreSQL connection pool size',
  HEAP_GROWING_PERCENT:
    'how far the JavaScript heap may grow past what the last full collection kept before the next one (V8 --heap-growing-percent); 0: V8 decides (it lets the heap reach several times its live size under load)',
  UPSTREAM_TIMEOUT_MS: 'timeout of one upstream attempt, connect to last body byte',
  UPSTREAM_RETRIES: 'retries after a connect error, 5xx or 429 (jittered exponential backoff)',
  UPSTREAM_BACKOFF_MS: 'base delay of the upstream retry backoff',
  EGRESS_MODE: 'direct | market_proxy (per-market proxy) | proxy_fallback (direct, proxy when blocked)',
  MARKET_PROXIES: 'per-market proxies, e.g. US=http://user:pass@host:port,GB=socks5://host:1080',
  DEFAULT_PROXY_URL: 'proxy for markets without their own entry in MARKET_PROXIES',
  SAFE_FETCH_ALLOW_PRIVATE: 'TEST ONLY: let the website fetcher reach private/loopback addresses (replay server)',
  CHROMIUM_PATH: 'headless browser (Debian chromium) for the rendered job-card search and the upstream browser path; absent: those answer 503 naming it',
  UPSTREAM_BROWSER_CONTEXTS: 'browser contexts open at once for the upstream browser path (one per call, closed after it)',
  UPSTREAM_BROWSER_QUEUE: 'browser calls that may wait for a context; beyond it a call answers 503 browser_busy (retryable, free)',
  UPSTREAM_BROWSER_TIMEOUT_MS: 'bound of one browser call: waiting for a context, then opening the page until the awaited reply',
  UPSTREAM_BROWSER_MEMORY_MB:
    "JavaScript heap cap of each context's page (V8 max-old-space-size of its renderer); over it the page crashes and the call answers 502",
  UPSTREAM_BROWSER_RECYCLE_PAGES: 'pages after which the browser process is replaced (once its running calls end)',
  UPSTREAM_BROWSER_IDLE_CLOSE_S:
    'seconds without a browser call after which Chromium is closed, giving its memory back; the next call starts it again (0: kept while the process runs)',
  UPSTREAM_BROWSER_WARM_S:
    "seconds a source's browser context is kept idle for its next call (cleared of cookies and storage after every call; at most 10 minutes old and UPSTREAM_BROWSER_RECYCLE_PAGES calls); 0: a fresh context per call",
  UPSTREAM_BROWSER_ALLOW_PRIVATE:
    'TEST ONLY: let browser pages reach a private/loopback address when it is the host an UPSTREAM_<ALIAS>_URL names (replay server)',
  UPSTREAM_CLEARANCE_REUSE:
    'keep the anonymous anti-bot clearance a browser visit earned (only the cookies the wall names, with the browser\'s user agent) in PostgreSQL for every process\'s plain requests, until a reply is a challenge again (docs/operating.md, "Clearance reuse"); false: every challenged call clears for itself',
  UPSTREAM_CLEARANCE_MAX_AGE_S: 'the longest a kept clearance is used, however long its cookies say they last (default 6 hours; AWS WAF allows at most 3 days)',
  ATS_HOST_OVERRIDES: 'JSON map of careers hosts to other base URLs (mirrors, tests), e.g. {"boards-api.greenhouse.io":"http://127.0.0.1:9000/gh"}',
  TRUST_PROXY:
    'dashboard behind a reverse proxy: true, a hop count, loopback or addresses (Express trust proxy); Secure cookies and per-IP limits follow X-Forwarded-* only then',
  GROUP_POS_CONTEXTS:
    'JSON contexts for otatwo/otathree/rentalone points of sale whose context is not public (those answer 503 without one), e.g. {"otatwo":{"CA":{"siteId":…,"tpid":…,"eapid":…,"locale":"en_CA","baseUrl":"https://…"}}}; the currency follows the market, baseUrl (optional) sends that market to its own site',
  GROUP_QUERY_HASHES:
    'JSON map of persisted GraphQL operation name to its current sha256, for when a site release rotates one and the brand does not find it again in its site\'s scripts (otherwise 503 "persisted query not found")',
  RUN_WORKER: 'run the calendar-batch worker in the API process (npm run worker runs it alone)',
  FIRST_KEY_FROM_ENV:
    'the stdio server on the embedded database: a database with no key yet takes API_KEY (sk_ and 32 letters, digits, _ or -) as its first key. The installed package (`npx hotelrates-api mcp`, the MCP bundle) sets it',
  STDIO_RUN_WORKER: 'also run the calendar-batch worker (and its queue) inside the stdio MCP server; off, a desktop launch serves tool calls only',
  WORKER_CONCURRENCY: 'calendar items run at once per worker process',
  JOB_MIN_EXPIRY_S:
    "lower bound of a queued run's expiry (batch item, MCP task, watch check): twice its expected time, after a crash it is handed out again once expired",
  JOB_MAX_EXPIRY_S:
    "upper bound of a queued run's expiry (watch checks: at most 1800 s): the longest a run whose worker died waits before it is handed out again; keep it above the longest run",
  QUEUE_MAINTENANCE_S: 'pg-boss maintenance interval (expiry of abandoned items); also run at start-up',
  WEBHOOK_SIGNING_SECRET:
    'Standard Webhooks secret `whsec_<base64 of 24-64 random bytes>`: enables job.completed webhooks and signs them; unset: callback_url is refused with 503',
  WEBHOOK_RETRY_SCHEDULE_S:
    'seconds before each retry of a failed webhook delivery, comma-separated (`none`: one attempt); default the Standard Webhooks schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h',
  WATCH_CONCURRENCY: 'watch checks run at once per worker process',
  WATCH_SWEEP_S:
    'how often the watch scheduler looks for overdue checks and for watches paused for credits that the account can now pay (one sweep per interval across processes)',
  WATCH_HOUR_S: 'TEST/BENCH ONLY: seconds in an hour of a watch schedule (every_hours) and of its daily digest; 3600 in production',
  WATCH_FAILING_AFTER:
    'schedule periods missed one after another (every attempt failed) before a watch is failing: a watch.failing event, then watch.resumed at its next successful check',
  WATCH_TODAY:
    "TEST ONLY: the date watches take as today (stays before it are refused, a watch whose stay passed it ends), for replays of recorded stays; unset: the clock's",
  OAUTH_ACCESS_TOKEN_TTL_S: 'lifetime of an OAuth access token for /mcp (connected apps refresh it)',
  OAUTH_REFRESH_TOKEN_TTL_S: 'lifetime of an OAuth refresh token; each refresh rotates it and starts a new lifetime',
  OAUTH_REGISTRATIONS_PER_MIN: 'dynamic client registrations (POST /oauth/register) accepted per minute from all addresses together',
  OAUTH_REGISTRATIONS_PER_IP_PER_MIN: 'dynamic client registrations accepted per minute from one client address',
  OAUTH_PENDING_CLIENTS_MAX:
    'OAuth clients no account has approved (registrations, cached client metadata documents) kept at most; the oldest are evicted first',
  SEARCH_ARCHIVE_DAYS: 'days a compatible search stays readable at its json_url / html_url (GET /api/v1/searches/{id}); an hourly job deletes older ones',
  ...CACHE_DOC,
  ...HOST_OVERRIDE_DOC,
  ...OFFICIAL_ENGINE_HOST_DOC,
  ...OFFICIAL_CREDENTIALS_DOC,
  ...MODE_DOC,
};

/** Shared set-up of the OTA, rental, official and compare integration tests. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { TOOLS } from '../../tools/index.js';
import { SafeFetcher, type SafeFetchInit, type SafeFetchResponse } from '../../src/upstream/safe-fetch.js';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay/server.js';
import { startTestService, type TestService } from '../helpers/test-service.js';


const ALIASES = ['otaone', 'otatwo', 'otathree', 'otafour', 'rentalone', 'rentaltwo', 'travelreview', 'hostel'] as const;

export interface Harness {
  replay: ReplayServer;
  svc: TestService;
  key: string;
  post(path: string, body: unknown): Promise<{ status: number; body: any; charged: string | null }>;
  get(path: string): Promise<{ status: number; body: any; charged: string | null }>;
  mcp(): Promise<Client>;
  close(): Promise<void>;
}

/** Stands for the replay server's base URL in the settings given to `startHarness`. */
export const REPLAY_URL = '{{replay}}';

/**
 * Every alias points at the replay server under its own path prefix (`/<alias>/…`), so routes of
 * different sources never collide; websites are fetched from the replay server too.
 */
export async function startHarness(routes: ReplayRoute[], env: Record<string, string> = {}): Promise<Harness> {
  const replay = await startReplayServer(routes);
  const hosts = Object.fromEntries(ALIASES.map((a) => [`UPSTREAM_${a.toUpperCase()}_URL`, `${replay.url}/${a}`]));
  const settings = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll(REPLAY_URL, replay.url)]));
  const svc = await startTestService({ ...hosts, UPSTREAM_RETRIES: '0', SAFE_FETCH_ALLOW_PRIVATE: 'true', ...settings });
  const key = (await svc.key()).key;
  const wrap = async (method: string, path: string, res: Response) => {
    const body = (await res.json()) as any;
    if (res.status === 200) assertConforms(method, path.split('?')[0], body);
    return { status: res.status, body, charged: res.headers.get('x-credits-charged') };
  };
  return {
    replay,
    svc,
    key,
    post: async (path, body) => wrap('POST', path, await svc.call(path, { key, body })),
    get: async (path) => wrap('GET', path, await svc.call(path, { key })),
    async mcp() {
      const client = new Client({ name: 'ota-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
      return client;
    },
    async close() {
      await svc?.close();
      await replay?.close();
    },
  };
}

/**
 * The real SSRF-safe fetcher, with the booking engines' public API hosts sent to the replay server
 * (their real hosts are public names that tests must not reach).
 */
export class EngineHostRewrite extends SafeFetcher {
  constructor(private readonly hosts: Record<string, string>) {
    super({ allowPrivate: true, timeoutMs: 5_000 });
  }

  override fetch(target: string, init?: SafeFetchInit): Promise<SafeFetchResponse> {
    const u = new URL(target);
    const to = this.hosts[u.host];
    return super.fetch(to ? `${to}${u.pathname}${u.search}` : target, init);
  }
}

type Schema = Record<string, any>;

/** Where `value` breaks the JSON Schema (the subset zod emits), or null: extra keys, missing keys, wrong types. */
function violation(schema: Schema, value: unknown, at: string): string | null {
  if (schema.anyOf) return schema.anyOf.some((s: Schema) => violation(s, value, at) === null) ? null : `${at}: matches no variant`;
  if ('const' in schema) return value === schema.const ? null : `${at}: expected ${JSON.stringify(schema.const)}`;
  if (schema.enum) return schema.enum.includes(value) ? null : `${at}: ${JSON.stringify(value)} not in enum`;
  const type = schema.type;
  if (type === 'null') return value === null ? null : `${at}: expected null`;
  if (type === 'string') return typeof value === 'string' ? null : `${at}: expected string`;
  if (type === 'boolean') return typeof value === 'boolean' ? null : `${at}: expected boolean`;
  if (type === 'number') return typeof value === 'number' ? null : `${at}: expected number`;
  if (type === 'integer') return Number.isInteger(value) ? null : `${at}: expected integer`;
  if (type === 'array') {
    if (!Array.isArray(value)) return `${at}: expected array`;
    for (let i = 0; i < value.length; i++) {
      const v = schema.items ? violation(schema.items, value[i], `${at}[${i}]`) : null;
      if (v) return v;
    }
    return null;
  }
  if (type === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return `${at}: expected object`;
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) return `${at}.${k}: missing`;
    for (const [k, v] of Object.entries(obj)) {
      const prop = schema.properties?.[k];
      if (prop) {
        const bad = violation(prop, v, `${at}.${k}`);
        if (bad) return bad;
      } else if (schema.additionalProperties === false) return `${at}.${k}: not in the output schema`;
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const bad = violation(schema.additionalProperties, v, `${at}.${k}`);
        if (bad) return bad;
      }
    }
    return null;
  }
  return null;
}

/** A 200 body must be exactly what the tool's output schema (OpenAPI and MCP outputSchema) says. */
function assertConforms(method: string, path: string, body: unknown): void {
  const tool = TOOLS.find((t) => t.method === method && (t.path === path || t.aliases.includes(path)));
  if (!tool) return;
  const bad = violation(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Schema, body, '$');
  if (bad) throw new Error(`${method} ${path} answered outside its output schema: ${bad}`);
}

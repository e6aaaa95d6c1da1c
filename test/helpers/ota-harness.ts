/** Shared set-up of the OTA, rental, official and compare integration tests. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TOOLS } from '../../tools/index.js';
import { OFFICIAL_ENGINE_IDS, officialEngineEnvName } from '../../src/config/hosts.js';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../replay/server.js';
import { assertOutputConforms } from './output-schema.js';
import { startTestService, type TestService } from './test-service.js';

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
 * Every alias points at the replay server under its own path prefix (`/<alias>/…`), and every priced
 * booking engine under `/engines/<engine>/…` (its UPSTREAM_OFFICIAL_<ENGINE>_URL), so routes of
 * different sources never collide; websites are fetched from the replay server too.
 */
export async function startHarness(routes: ReplayRoute[], env: Record<string, string> = {}): Promise<Harness> {
  const replay = await startReplayServer(routes);
  const hosts = Object.fromEntries([
    ...ALIASES.map((a) => [`UPSTREAM_${a.toUpperCase()}_URL`, `${replay.url}/${a}`]),
    ...OFFICIAL_ENGINE_IDS.map((e) => [officialEngineEnvName(e), `${replay.url}/engines/${e}`]),
  ]);
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

/** A 200 body must be exactly what the tool's output schema (OpenAPI and MCP outputSchema) says. */
function assertConforms(method: string, path: string, body: unknown): void {
  const tool = TOOLS.find((t) => t.method === method && (t.path === path || t.aliases.includes(path)));
  if (tool) assertOutputConforms(tool, body);
}

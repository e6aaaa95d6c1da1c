import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { UpstreamClient } from '../../../src/upstream/client.js';
import { startReplayServer, type ReplayRoute, type ReplayServer } from '../../replay/server.js';

/** A client whose upstream hosts all point at `baseUrl` (the replay server), with fast backoff. */
export function replayClient(baseUrl: string, env: Record<string, string> = {}): { client: UpstreamClient; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upstream-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    UPSTREAM_BACKOFF_MS: '1',
    UPSTREAM_RETRIES: '2',
    UPSTREAM_TIMEOUT_MS: '5000',
    UPSTREAM_METASEARCH_URL: baseUrl,
    UPSTREAM_OTAONE_URL: baseUrl,
    UPSTREAM_OTATWO_URL: baseUrl,
    UPSTREAM_TRENDS_URL: baseUrl,
    UPSTREAM_VIDEO_URL: baseUrl,
    ...env,
  });
  return { client: new UpstreamClient(config, pino({ level: 'silent' })), dataDir };
}

/** The rejection of a promise, for asserting on error class and detail. */
export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

/** A replay server and a client pointed at it, started per test and closed after it. */
export function replayPerTest() {
  let open: { server: ReplayServer; client: UpstreamClient } | undefined;
  afterEach(async () => {
    await open?.client.close();
    await open?.server.close();
    open = undefined;
  });
  return {
    /** `env` may depend on the server's URL (a host override under a path prefix). */
    async start(routes: ReplayRoute[], env: Record<string, string> | ((url: string) => Record<string, string>) = {}): Promise<UpstreamClient> {
      const server = await startReplayServer(routes);
      open = { server, client: replayClient(server.url, typeof env === 'function' ? env(server.url) : env).client };
      return open.client;
    },
    /** The running test's replay server. */
    get server(): ReplayServer {
      if (!open) throw new Error('no replay server started in this test');
      return open.server;
    },
  };
}

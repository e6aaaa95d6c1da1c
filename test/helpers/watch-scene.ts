/**
 * What the watch tests set up alike: the service over a replayed calendar upstream with signed
 * webhooks retried at once, and a webhook receiver on loopback.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReplayServer } from '../replay/server.js';
import { startTestService, type TestService } from './test-service.js';

/** A signing secret in the Standard Webhooks form, fresh for each test file. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The service the watch tests run: its calendar upstream on `replay` (no upstream retry), webhooks
 * signed with `secret` and retried after 0.1 s, callbacks to loopback allowed; `env` adds or overrides.
 */
export function startWatchService(replay: ReplayServer, secret: string, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({
    UPSTREAM_METASEARCH_URL: replay.url,
    UPSTREAM_RETRIES: '0',
    WEBHOOK_SIGNING_SECRET: secret,
    SAFE_FETCH_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE_S: '0.1,0.1',
    ...env,
  });
}

export interface HookReceiver {
  url: string;
  /** Every delivery, in order, with the status it was answered. */
  received: { headers: http.IncomingHttpHeaders; body: string; status: number }[];
  close(): Promise<void>;
}

/** A webhook receiver on loopback answering each delivery with `status()` (default 204). */
export async function startHookReceiver(status: () => number = () => 204): Promise<HookReceiver> {
  const received: HookReceiver['received'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const answer = status();
      received.push({ headers: req.headers, body, status: answer });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

import { expect } from 'vitest';
import type { TestService } from './test-service.js';
import { waitFor } from './wait.js';

/**
 * The REST API as one key calls it: `api` GETs a path, or POSTs `body` to it, expecting a success;
 * `finished` polls a batch's poll_url until it has finished. `key` is read at each call (a test's
 * beforeAll sets it).
 */
export function keyedApi(svc: () => Pick<TestService, 'call'>, key: () => string) {
  const api = async (path: string, body?: unknown) => {
    const res = await svc().call(path, { key: key(), body, method: body === undefined ? 'GET' : 'POST' });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as any;
  };
  const finished = (pollUrl: string) =>
    waitFor(
      async () => {
        const r = await api(pollUrl);
        return r.finished_at ? r : null;
      },
      { what: pollUrl, timeoutMs: 120_000 },
    );
  return { api, finished };
}

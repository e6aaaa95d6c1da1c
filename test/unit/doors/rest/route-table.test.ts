import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../../../tools/index.js';
import { expressPath } from '../../../../src/doors/rest/rest.js';
import { routeTable } from '../../../../src/doors/rest/route-table.js';

/**
 * The route table in front of the routers must pick what Express would: the same operation and
 * parameters for every route of the registry, in every form a caller may write the path.
 */
let base: string;
let server: ReturnType<express.Express['listen']>;

beforeAll(async () => {
  const app = express();
  for (const tool of TOOLS) {
    for (const path of [tool.path, ...tool.aliases]) {
      app[tool.method.toLowerCase() as 'get' | 'post' | 'delete'](expressPath(path), (req, res) => void res.json({ tool: tool.name, params: req.params }));
    }
  }
  app.use(
    (err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      void res.status(400).json({ error: err instanceof URIError ? 'URIError' : String(err) }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Paths a caller may send for a template: values, encodings, case, a trailing slash, a suffix. */
function samples(template: string): string[] {
  const fill = (v: string) => template.replace(/\{[A-Za-z0-9_]+\}/g, v);
  return [
    fill('abc'),
    fill('a%20b'),
    fill('x.html'),
    fill('caf%C3%A9'),
    fill('%E0%A4%A'),
    `${fill('abc')}/`,
    fill('abc').toUpperCase(),
    `${fill('abc')}/extra`,
  ];
}

// every route of the registry through a real Express app: seconds alone, minutes beside a loaded suite
describe('route table', { timeout: 240_000 }, () => {
  it('finds the operation and parameters Express finds, for every route of the registry', async () => {
    const find = routeTable(TOOLS);
    let checked = 0;
    for (const tool of TOOLS) {
      for (const template of [tool.path, ...tool.aliases]) {
        for (const path of samples(template)) {
          const res = await fetch(`${base}${path}`, {
            method: tool.method,
            ...(tool.method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
          });
          const ours = find(tool.method, path);
          if (res.status === 404) {
            expect(ours, `${tool.method} ${path}`).toBeUndefined();
            checked++;
            continue;
          }
          const express = (await res.json()) as { tool?: string; params?: Record<string, string>; error?: string };
          if (express.error) expect(express.error).toBe('URIError');
          if (express.error) expect(ours?.params, `${tool.method} ${path}`).toBeNull();
          else expect({ tool: ours?.tool.name, params: ours?.params }, `${tool.method} ${path}`).toEqual(express);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});

import fs from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { fixturePath, readFixture } from '../helpers/fixtures.js';
import { zstdRawFrame } from './zstd-frame.js';

/**
 * Local HTTP server that replays recorded upstream payloads, so sources run end to end without
 * the internet. First matching route wins; unmatched requests get 404 with `x-replay-unmatched: 1`.
 */
type ReplayFailure = { status: number; body?: string; headers?: Record<string, string> } | { close: true } | { delayMs: number } | { cut: ReplayCut };

/**
 * A reply whose transfer stops after `at` bytes of its (encoded) body. `framing` is what the
 * headers announce: the full Content-Length (default), chunked, or nothing (the body ends when
 * the connection closes, so a cut looks complete on the wire). `end`: the connection is closed
 * (default) or reset.
 */
export interface ReplayCut {
  at: number;
  framing?: 'length' | 'chunked' | 'close';
  end?: 'close' | 'reset';
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReplayRoute {
  /** Default GET. */
  method?: string;
  path: string;
  /** Every listed parameter must be present with this value; others are ignored. */
  query?: Record<string, string>;
  /** Extra predicate, e.g. on a cookie header. */
  match?: (req: RecordedRequest) => boolean;
  status?: number;
  headers?: Record<string, string>;
  /** Inline payload; an object is sent as JSON. */
  body?: string | Buffer | object;
  /** Path under ../shared/fixtures; a `.zst` file is served as-is when encoding is zstd, else decompressed. */
  fixture?: string;
  encoding?: 'gzip' | 'br' | 'deflate' | 'zstd';
  /** Computes the payload from the request (an RPC whose reply depends on its arguments). */
  reply?: (req: RecordedRequest) => string | object;
  /** Computes the whole answer from the request: status, headers (a list for repeated ones, e.g. set-cookie) and body. */
  respond?: (req: RecordedRequest) => ReplayAnswer;
  /** One-shot behaviours consumed in order by the first requests to this route, before the normal reply. */
  failFirst?: ReplayFailure[];
  /** Delay before every normal reply. */
  delayMs?: number;
  /**
   * The reply waits until this holds of the requests received so far (checked every 5 ms, for at
   * most 30 s): an ordering between concurrent callers that a fixed delay only makes likely.
   */
  holdUntil?: (received: readonly RecordedRequest[]) => boolean;
  /** Every reply of this route is cut (see ReplayCut). */
  cut?: ReplayCut;
}

export interface ReplayAnswer {
  status?: number;
  headers?: Record<string, string | string[]>;
  body: string | object;
}

export interface ReplayServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startReplayServer(routes: ReplayRoute[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  const pending = new Map(routes.map((r) => [r, [...(r.failFirst ?? [])]]));

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const parsed = new URL(req.url ?? '/', 'http://replay.local');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(recorded);

    const route = routes.find((r) => matches(r, recorded));
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain', 'x-replay-unmatched': '1' }).end(`no replay route for ${recorded.method} ${recorded.url}`);
      return;
    }
    const failure = pending.get(route)!.shift();
    if (failure && 'close' in failure) {
      req.socket.destroy();
      return;
    }
    if (failure && 'status' in failure) {
      res.writeHead(failure.status, { 'content-type': 'text/html; charset=utf-8', ...failure.headers }).end(failure.body ?? '');
      return;
    }
    if (route.respond) {
      const answer = route.respond(recorded);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      const type = typeof answer.body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
      if (route.delayMs) await new Promise((r) => setTimeout(r, route.delayMs));
      res.writeHead(answer.status ?? 200, { 'content-type': type, 'content-length': String(Buffer.byteLength(text)), ...answer.headers }).end(text);
      return;
    }
    for (const until = Date.now() + 30_000; route.holdUntil && !route.holdUntil(requests) && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 5));
    }
    // built before the delay, so the injected latency is the upstream's whole time
    const { body, headers } = payload(route.reply ? { ...route, body: route.reply(recorded) } : route);
    const delay = (failure && 'delayMs' in failure ? failure.delayMs : 0) + (route.delayMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;
    const cut = failure && 'cut' in failure ? failure.cut : route.cut;
    if (cut) return sendCut(res, route.status ?? 200, headers, body, cut);
    res.writeHead(route.status ?? 200, { 'content-length': String(body.length), ...headers }).end(body);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendCut(res: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer, cut: ReplayCut): void {
  const framing = cut.framing ?? 'length';
  if (framing === 'length') headers['content-length'] = String(body.length);
  if (framing === 'close') {
    res.useChunkedEncodingByDefault = false;
    headers.connection = 'close';
  }
  res.writeHead(status, headers);
  res.write(body.subarray(0, cut.at), () => {
    if (cut.end === 'reset') res.socket?.resetAndDestroy();
    else if (framing === 'close') res.end();
    else res.socket?.end();
  });
}

function matches(route: ReplayRoute, req: RecordedRequest): boolean {
  if ((route.method ?? 'GET').toUpperCase() !== req.method.toUpperCase()) return false;
  if (route.path !== req.path) return false;
  for (const [k, v] of Object.entries(route.query ?? {})) if (req.query[k] !== v) return false;
  return route.match ? route.match(req) : true;
}

function payload(route: ReplayRoute): { body: Buffer; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...route.headers };
  let plain: Buffer;
  if (route.fixture && route.encoding === 'zstd' && route.fixture.endsWith('.zst')) {
    headers['content-encoding'] = 'zstd';
    headers['content-type'] ??= 'text/html; charset=utf-8';
    return { body: fs.readFileSync(fixturePath(route.fixture)), headers };
  }
  if (route.fixture) {
    plain = Buffer.from(readFixture(route.fixture));
    headers['content-type'] ??= route.fixture.replace(/\.zst$/, '').endsWith('.json') ? 'application/json' : 'text/html; charset=utf-8';
  } else if (Buffer.isBuffer(route.body) || typeof route.body === 'string') {
    plain = Buffer.from(route.body);
    headers['content-type'] ??= 'text/html; charset=utf-8';
  } else if (route.body !== undefined) {
    plain = Buffer.from(JSON.stringify(route.body));
    headers['content-type'] ??= 'application/json';
  } else {
    plain = Buffer.alloc(0);
  }
  if (!route.encoding) return { body: plain, headers };
  headers['content-encoding'] = route.encoding;
  const encoded =
    route.encoding === 'gzip'
      ? zlib.gzipSync(plain)
      : route.encoding === 'br'
        ? zlib.brotliCompressSync(plain)
        : route.encoding === 'deflate'
          ? zlib.deflateSync(plain)
          : zstdRawFrame(plain);
  return { body: encoded, headers };
}

import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';

/**
 * Requests the HTTP parser refuses before any route: headers over Node's 16 KB are a 431, a
 * malformed request line a 400, each with a short JSON detail, and the client reads the answer
 * even while it is still sending a body (Node's own handler destroys the socket at once, and on
 * Node 24 a client sending a large body gets a connection reset instead of the 431).
 */
let svc: TestService;
let port: number;

beforeAll(async () => {
  svc = await startTestService();
  port = Number(new URL(svc.url).port);
});
afterAll(async () => {
  await svc?.close();
});

/** One request on a connection of its own; the status, or the network error it met instead. */
function send(
  path: string,
  headers: Record<string, string>,
  body?: string,
  agent: http.Agent | false = false,
): Promise<{ status: number | string; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve) => {
    const h: Record<string, string | number> = { ...headers };
    if (body !== undefined) h['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, method: body === undefined ? 'GET' : 'POST', path, headers: h, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? err.message, body: '', headers: {} }));
    req.end(body);
  });
}

describe('requests refused by the HTTP parser', () => {
  it('headers over 16 KB are a 431 with a short detail, with or without a body, however large the body', async () => {
    const longQuery = `/v1/hotels/search?q=${'a'.repeat(20_000)}`;
    const cases = [
      send(longQuery, {}),
      send('/v1/hotels/search', { 'x-padding': 'b'.repeat(20_000) }, '{"q":"paris"}'),
      send(longQuery, { 'content-type': 'application/json' }, JSON.stringify({ q: 'x'.repeat(200_000) })),
      send(longQuery, { 'content-type': 'application/json' }, JSON.stringify({ q: 'x'.repeat(1_900_000) })),
    ];
    for (const reply of await Promise.all(cases)) {
      expect(reply.status).toBe(431);
      expect(JSON.parse(reply.body)).toEqual({ detail: 'request line and headers over 16 KB' });
      expect(reply.headers.connection).toBe('close');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('on a kept-alive connection that has already served a request, too', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const size of [20_000, 1_000_000]) {
        expect((await send('/healthz', {}, undefined, agent)).status).toBe(200);
        const reply = await send(`/v1/hotels/search?q=${'a'.repeat(size)}`, {}, undefined, agent);
        expect(reply.status).toBe(431);
      }
    } finally {
      agent.destroy();
    }
  });

  it('a malformed request is a 400, and the socket closes after the answer', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      let data = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (data += d));
      socket.on('error', reject);
      socket.on('close', () => resolve(data));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer.endsWith('{"detail":"malformed HTTP request"}')).toBe(true);
  });

  it('the service goes on answering', async () => {
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  });
});

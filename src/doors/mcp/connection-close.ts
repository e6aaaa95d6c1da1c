import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/** The request asks for its connection to end with the reply (HTTP/1.1 `Connection: close`, or HTTP/1.0 without keep-alive). */
function wantsClose(req: Request): boolean {
  const tokens = String(req.headers.connection ?? '').toLowerCase();
  if (/(^|,)\s*close\s*(,|$)/.test(tokens)) return true;
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 0 && !/(^|,)\s*keep-alive\s*(,|$)/.test(tokens);
}

function withoutConnection(headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): OutgoingHttpHeaders | OutgoingHttpHeader[] {
  if (Array.isArray(headers)) {
    // flat [name, value, name, value …]
    const out: OutgoingHttpHeader[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() !== 'connection') out.push(headers[i], headers[i + 1]);
    return out;
  }
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'connection'));
}

/**
 * `Connection: close` honoured on every reply, event streams included: Node closes the socket after
 * a reply marked so, but a handler that sets `Connection: keep-alive` itself (the MCP SDK does on
 * its event streams) overrides the request's wish, and the socket then stays open until the
 * keep-alive timeout. Connection management is the server's, not a handler's: any `connection`
 * header a handler sets is replaced by `close` here.
 */
export function honourConnectionClose(req: Request, res: Response, next: NextFunction): void {
  if (!wantsClose(req)) return next();
  const raw = res as ServerResponse;
  const writeHead = raw.writeHead.bind(raw) as (...args: unknown[]) => ServerResponse;
  raw.writeHead = (status: number, ...rest: unknown[]) => {
    const args = rest.map((a) => (a && typeof a === 'object' ? withoutConnection(a as OutgoingHttpHeaders) : a));
    raw.setHeader('connection', 'close');
    return writeHead(status, ...args);
  };
  next();
}

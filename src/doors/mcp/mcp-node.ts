import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';

/**
 * The SDK's web-standard MCP handler for a request whose JSON body was already read and parsed
 * here. The SDK reads a request's `parsedBody`, never its body, so the web Request carries none
 * (the SDK's own Node adapter serialises the parsed body again and streams it); a JSON answer is
 * read whole and written with its length in one piece, an event stream is relayed as it comes.
 */
export async function serveParsedBody(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  authInfo: AuthInfo,
  parsedBody: unknown,
): Promise<void> {
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onClose);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers, signal: abort.signal });
  const response = await handler.fetch(request, { authInfo, parsedBody });
  const out: Record<string, string> = {};
  for (const [name, value] of response.headers) out[name] = value;
  if (response.body === null || !(out['content-type'] ?? '').startsWith('text/event-stream')) {
    const body = response.body === null ? null : Buffer.from(await response.arrayBuffer());
    if (body) out['content-length'] = String(body.length);
    res.writeHead(response.status, out);
    res.end(body);
  } else {
    res.writeHead(response.status, out);
    await relay(response.body, res, abort.signal);
  }
  res.off('close', onClose);
}

/** Headers of the body that is not forwarded. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/** An event stream chunk by chunk, waiting for the socket when it is full, until the client leaves. */
async function relay(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const left = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done && !signal.aborted; next = await reader.read()) {
      if (!res.write(next.value)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), left]);
    }
  } catch {
    // the stream failed or the client left: what was written stands
  }
  reader.releaseLock();
  res.end();
}

import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Requests Node's HTTP parser refuses before any route sees them, and what each is answered. */
const REFUSALS: Record<string, { status: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', detail: 'request line and headers over 16 KB' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', detail: 'request not received in time' },
};
const MALFORMED = { status: '400 Bad Request', detail: 'malformed HTTP request' };

/** How long, and how much, a refused client may still send before its connection is cut. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 4 * 1024 * 1024;

/** Node's ServerResponse of the request the connection is on, when it has sent its head (Node's own check, `_httpMessage._headerSent`). */
function responseStarted(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}

/**
 * Answers what the HTTP parser refuses (oversized headers: 431, a timeout: 408, anything else:
 * 400) and then closes the connection gracefully. Node's own handler writes the answer and
 * destroys the socket at once: with the client still sending its body, the unread bytes make the
 * kernel reset the connection, and the client may lose the answer (Node 24 loses it every time for
 * a large body). Here the answer is followed by our end of the connection (FIN), and what the client
 * still sends is read and dropped, for at most 2 s and 4 MB, so the answer arrives whole before the
 * socket closes (the lingering close of RFC 9112 §9.6).
 */
export function answerClientErrors(server: Server): void {
  // the parser stays on the socket and fails again at each later chunk: one answer per connection
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // as Node's own handler: no answer once a response on this connection has begun (a kept-alive
    // connection has served earlier requests; what matters is the response now attached to it)
    if (!socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const { status, detail } = (err.code && REFUSALS[err.code]) || MALFORMED;
    const body = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // the parser reads nothing more of this connection
    socket.removeAllListeners('data');
    let dropped = 0;
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    cut.unref();
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    socket.on('error', () => socket.destroy());
    socket.once('close', () => clearTimeout(cut));
    socket.resume();
  });
}

/**
 * What a browser page may reach, enforced where the page's traffic leaves: each browser call gets
 * a forward proxy of its own on loopback, and its context sends every request through it (loopback
 * included), so redirects, sub-resources, XHR, beacons and WebSocket tunnels all pass the same
 * check. A request goes out only to a host of the source (its base URL, its asset domains, the bot
 * walls' challenge hosts) and only to public addresses, resolved here and connected to as checked
 * (no second DNS answer to rebind).
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from './ip-ranges.js';

export type BlockReason = 'scheme' | 'host' | 'private_address';

export interface BlockedRequest {
  /** Scheme, host and port only: never a path or query of the page's. */
  origin: string;
  reason: BlockReason;
}

interface HostRule {
  host: string;
  /** `*.x`: x and every subdomain. */
  wildcard: boolean;
  /** Exact port; null: the default ports (80, 443). */
  port: string | null;
}

const DEFAULT_PORTS = new Set(['80', '443']);

function parseRule(entry: string): HostRule {
  const wildcard = entry.startsWith('*.');
  return { host: (wildcard ? entry.slice(2) : entry).toLowerCase(), wildcard, port: null };
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
}

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

export class EgressRules {
  readonly #rules: HostRule[];
  /** `host:port` of the configured base URL, when it may resolve to a private address (TEST ONLY setting). */
  readonly #privateOk: string | null;

  /**
   * `base`: the source's base URL (its host and port are allowed exactly); `hosts`: further host
   * names of the source (default ports only); `allowPrivate` lets the base host be private.
   */
  constructor(base: string, hosts: string[], allowPrivate: boolean) {
    const url = new URL(base);
    const own: HostRule = { host: bare(url.hostname), wildcard: false, port: effectivePort(url) };
    this.#rules = [own, ...hosts.map(parseRule)];
    this.#privateOk = allowPrivate ? `${own.host}:${own.port}` : null;
  }

  /** Why the page may not ask for this host and port at all (before any DNS), or null. */
  checkHost(host: string, port: string): BlockReason | null {
    const h = bare(host);
    const ok = this.#rules.some((r) => {
      if (r.port ? r.port !== port : !DEFAULT_PORTS.has(port)) return false;
      return r.wildcard ? h === r.host || h.endsWith(`.${r.host}`) : h === r.host;
    });
    return ok ? null : 'host';
  }

  check(url: URL): BlockReason | null {
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return 'scheme';
    return this.checkHost(url.hostname, effectivePort(url));
  }

  /** Whether a non-public address is acceptable for this host (only the configured base, only when allowed). */
  mayBePrivate(host: string, port: string): boolean {
    return this.#privateOk === `${bare(host)}:${port}`;
  }

  /**
   * The address to connect to: the host's own (an IP literal) or its resolution, refused when any
   * address is non-public (unless the host may be private).
   */
  async resolve(host: string, port: string): Promise<{ address: string } | { blocked: BlockReason } | { unresolved: true }> {
    const h = bare(host);
    const addresses = net.isIP(h)
      ? [h]
      : await dns.lookup(h, { all: true }).then(
          (as) => as.map((a) => a.address),
          () => [],
        );
    if (addresses.length === 0) return { unresolved: true };
    if (!this.mayBePrivate(h, port) && addresses.some((a) => !isPublicAddress(a))) return { blocked: 'private_address' };
    return { address: addresses[0] };
  }
}

export interface EgressGuard {
  /** The proxy the browser context is given. */
  proxyUrl: string;
  /** What the page was refused, in order. */
  blocked: BlockedRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

function forwardHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())));
}

function forwardRaw(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

/** Starts the call's proxy on an ephemeral loopback port. */
export async function startEgressGuard(rules: EgressRules, onBlocked: (b: BlockedRequest) => void = () => undefined): Promise<EgressGuard> {
  const blocked: BlockedRequest[] = [];
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const refuse = (origin: string, reason: BlockReason) => {
    const b = { origin, reason };
    blocked.push(b);
    onBlocked(b);
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  const onRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const origin = `${url.protocol}//${url.host}`;
    const port = effectivePort(url);
    const reason = url.protocol === 'http:' ? rules.checkHost(url.hostname, port) : 'scheme';
    const target = reason ? { blocked: reason } : await rules.resolve(url.hostname, port);
    if (!('address' in target)) {
      if ('blocked' in target) refuse(origin, target.blocked);
      // a network error for the page, not a response it could read as the site's
      res.destroy();
      return;
    }
    const upstream = http.request(
      {
        host: target.address,
        port: Number(port),
        method: req.method,
        path: url.pathname + url.search,
        headers: forwardHeaders(req.headers),
        agent,
        setHost: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardRaw(up.rawHeaders));
        up.pipe(res);
        up.on('error', () => res.destroy());
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const onConnect = async (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!m) {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, port] = m;
    const origin = `${port === '443' ? 'https' : 'tunnel'}://${host}:${port}`;
    const reason = rules.checkHost(host, port);
    const target = reason ? { blocked: reason } : await rules.resolve(host, port);
    if (!('address' in target)) {
      if ('blocked' in target) refuse(origin, target.blocked);
      socket.end(`HTTP/1.1 ${'blocked' in target ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
      return;
    }
    const upstream = net.connect(Number(port), target.address, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  };
  // a lookup that fails ends that one page request or tunnel as a network error, never the process
  const server = http.createServer((req, res) => void onRequest(req, res).catch(() => res.destroy()));
  server.on('connection', track);
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void onConnect(req, socket, head).catch(() => socket.destroy()));
  // a plain-text WebSocket through the proxy: no source needs one
  server.on('upgrade', (_req, socket: net.Socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    blocked,
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

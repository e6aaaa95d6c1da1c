import http, { type RequestListener, type Server } from 'node:http';
import net from 'node:net';

/** Which setting a port comes from, and the command that starts the process: what the fix names. */
export interface PortSetting {
  variable: 'PORT' | 'WORKER_PORT';
  command: string;
}

export const API_PORT: PortSetting = { variable: 'PORT', command: 'npm start' };
export const WORKER_PORT: PortSetting = { variable: 'WORKER_PORT', command: 'npm run worker' };

/** The port cannot be listened on; the message names it and the fix. */
class PortUnavailable extends Error {
  constructor(host: string, port: number, code: string, setting: PortSetting) {
    const why =
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} (${setting.variable}) is already in use (another start of this service, or another program, listens there)`
        : code === 'EACCES'
          ? `port ${port} on ${host} (${setting.variable}) needs privileges this process does not have`
          : `cannot listen on ${host}:${port} (${setting.variable}, ${code})`;
    const other = port === 65535 ? 8080 : port + 1;
    super(`${why}: stop that process, or start on another port, e.g. ${setting.variable}=${other} ${setting.command}`);
    this.name = 'PortUnavailable';
  }
}

function bind(server: net.Server, host: string, port: number, setting: PortSetting): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(new PortUnavailable(host, port, err.code ?? 'error', setting));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Fails at once, naming the port and the fix, when the port is taken: checked before the database
 * and the workers start, so a busy port costs no embedded-cluster start and no 20 s of waiting.
 * (A port taken in between is caught by `listen` below, with the same message.)
 */
export async function assertPortFree(host: string, port: number, setting: PortSetting): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await bind(probe, host, port, setting);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** An HTTP server for `app` listening on host:port; PortUnavailable when it cannot. */
export async function listen(app: RequestListener, host: string, port: number, setting: PortSetting): Promise<Server> {
  const server = http.createServer(app);
  await bind(server, host, port, setting);
  return server;
}

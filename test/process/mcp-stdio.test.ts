/**
 * The stdio server exactly as the README tells a desktop user to launch it: the command and
 * arguments are read out of README.md, so the two cannot drift.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite } from '../helpers/fixtures.js';
import { freePort } from '../helpers/free-port.js';
import { callArguments, replayEnv, stable, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS } from '../helpers/mcp-tool-calls.js';
import { runEntry } from '../helpers/spawn-service.js';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { waitFor } from '../helpers/wait.js';
import type { ReplayServer } from '../replay/server.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** The desktop snippet of the README: `{ mcpServers: { <name>: { command, args, env } } }`. */
function desktopCommand(): { command: string; args: string[]; env: Record<string, string> } {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('"mcpServers"'));
  if (!block) throw new Error('README has no desktop snippet');
  const [server] = Object.values(JSON.parse(block).mcpServers) as { command: string; args: string[]; env: Record<string, string> }[];
  return { ...server, args: server.args.map((a) => a.replace('/path/to/this/repo', REPO)) };
}

/** The README command, started the way a desktop client starts it: its own working directory, its own env. */
function launch(env: Record<string, string>, stderr: 'pipe' | 'ignore' = 'ignore'): StdioClientTransport {
  const { command, args, env: snippetEnv } = desktopCommand();
  return new StdioClientTransport({
    command,
    args,
    // a desktop client starts the server from its own directory, with PATH to find node
    cwd: os.tmpdir(),
    env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ...snippetEnv, ...env },
    stderr,
  });
}

/** Running: a process that ended but was not yet reaped by its parent (a zombie) counts as gone. */
function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The process and everything it started, read from /proc. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const task of fs.readdirSync(`/proc/${out[i]}/task`, { withFileTypes: true })) {
      const children = fs.readFileSync(`/proc/${out[i]}/task/${task.name}/children`, 'utf8').trim();
      if (children) out.push(...children.split(/\s+/).map(Number));
    }
  }
  return out;
}

describe('README desktop command', () => {
  it('launches node itself, on this repository', () => {
    const { command, args } = desktopCommand();
    expect(command).toBe('node');
    expect(args).toEqual([path.join(REPO, 'bin/mcp-stdio.mjs')]);
  });
});

const suite = fixtureSuite('all 18 tools over stdio (README command) and over HTTP give the same results', ...TOOL_CALL_FIXTURES);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let key: string;
  let http: Client;
  let stdio: Client;

  beforeAll(async () => {
    replay = await startToolCallReplay();
    svc = await startTestService(replayEnv(replay));
    key = (await svc.key({ plan: 'scale' })).key;
    http = new Client({ name: 'http', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
    stdio = new Client({ name: 'desktop', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await stdio.connect(launch({ ...replayEnv(replay), API_KEY: key, DATABASE_URL: svc.deps.config.DATABASE_URL!, LOG_LEVEL: 'silent' }));
  });
  afterAll(async () => {
    await stdio?.close();
    await http?.close();
    await svc?.close();
    await replay?.close();
  });

  it('both doors speak 2026-07-28 and list the same 18 tools', async () => {
    expect(stdio.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(http.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const [a, b] = await Promise.all([stdio.listTools(), http.listTools()]);
    expect(a.tools).toEqual(b.tools);
    expect(a.tools.map((t) => t.name).sort()).toEqual(TOOL_CALLS.map((c) => c.name).sort());
  });

  it('every tool answers over stdio exactly as over HTTP', async () => {
    const earlier: Record<string, unknown> = {};
    for (const call of TOOL_CALLS) {
      const args = callArguments(call, earlier, replay);
      const overHttp = await http.callTool({ name: call.name, arguments: args });
      const overStdio = await stdio.callTool({ name: call.name, arguments: args });
      // no tool may fail for want of a service the stdio server did not build
      if (overStdio.isError) expect((overStdio.content as { text: string }[])[0].text, call.name).not.toMatch(/^\w+ unavailable$/);
      expect(overStdio.isError ?? false, call.name).toBe(overHttp.isError ?? false);
      if (overHttp.isError) {
        expect(overStdio.content, call.name).toEqual(overHttp.content);
        expect((overStdio._meta as { status: number }).status, call.name).toBe((overHttp._meta as { status: number }).status);
      } else {
        expect(stable(overStdio.structuredContent), call.name).toEqual(stable(overHttp.structuredContent));
      }
      earlier[call.name] = overHttp.structuredContent;
    }
    // only the official site, whose booking engine is detected but not quoted, answers with an error
    const failed = (await svc.deps.sql<{ path: string; status: number }[]>`SELECT DISTINCT path, status FROM request_history WHERE status >= 400`).map(
      (r) => `${r.path} ${r.status}`,
    );
    expect(failed).toEqual(['get_official_rate 422']);
  });
});

describe('stdio lifecycle: nothing is left behind', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let key: string;

  beforeAll(async () => {
    // no DATABASE_URL: the stdio server has to start (and later stop) the embedded cluster itself
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-stdio-'));
    env = { DATABASE_URL: '', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'debug' };
    const created = await runEntry('src/cli/keys.ts', ['create', '--name', 'desktop'], env);
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim().split('\n').at(-1)!;
  }, 120_000);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const postmaster = () => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

  /** Starts the server, makes it start the cluster with one call, and returns its process tree. */
  async function started(
    extraEnv: Record<string, string> = {},
  ): Promise<{ client: Client; transport: StdioClientTransport; tree: number[]; log: () => string }> {
    const transport = launch({ ...env, ...extraEnv, API_KEY: key }, 'pipe');
    let log = '';
    transport.stderr!.on('data', (d) => (log += d));
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    const balance = await client.callTool({ name: 'get_credit_balance', arguments: {} });
    expect(balance.isError, JSON.stringify(balance.content)).toBeFalsy();
    const tree = processTree(transport.pid!);
    // the cluster this server started runs under it
    expect(tree).toContain(postmaster());
    return { client, transport, tree, log: () => log };
  }

  it('closing the client (its stdin) ends the server and the cluster it started', async () => {
    const { client, tree, log } = await started();
    await client.close();
    await waitFor(async () => tree.every((pid) => !alive(pid)), { what: 'every process of the server to end', timeoutMs: 10_000 });
    expect(log()).toContain('"reason":"stdin closed"');
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s ends the server and the cluster it started',
    async (signal) => {
      const { client, transport, tree, log } = await started();
      process.kill(transport.pid!, signal);
      await waitFor(async () => tree.every((pid) => !alive(pid)), { what: 'every process of the server to end', timeoutMs: 10_000 });
      expect(log()).toContain(`"reason":"${signal}"`);
      await client.close();
    },
    120_000,
  );

  it('a cluster it joined is left running', async () => {
    // a first server started the cluster; a second one joins it and must not stop it on its way out
    const first = await started();
    const second = launch({ ...env, API_KEY: key }, 'pipe');
    const client = new Client({ name: 'desktop-2', version: '1.0.0' });
    await client.connect(second);
    expect((await client.callTool({ name: 'get_credit_balance', arguments: {} })).isError).toBeFalsy();
    const pg = postmaster();
    const secondPid = second.pid!;
    await client.close();
    await waitFor(async () => !alive(secondPid), { what: 'the second server to end', timeoutMs: 10_000 });
    expect(alive(pg)).toBe(true);
    await first.client.close();
    await waitFor(async () => first.tree.every((pid) => !alive(pid)), { what: 'the first server and its cluster to end', timeoutMs: 10_000 });
  }, 120_000);

  /** An upstream that takes every request and never answers: the call stays in flight until it is aborted. */
  async function silentUpstream(): Promise<{ url: string; requested: Promise<void>; aborted: Promise<void>; close(): void }> {
    let onRequest!: () => void;
    let onAbort!: () => void;
    const requested = new Promise<void>((resolve) => (onRequest = resolve));
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    const server = http.createServer((req) => {
      req.socket.once('close', onAbort);
      onRequest();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requested,
      aborted,
      close: () => {
        server.closeAllConnections();
        server.close();
      },
    };
  }

  /** A search in flight on the silent upstream, over a server that has started its cluster. */
  async function callInFlight() {
    const upstream = await silentUpstream();
    const server = await started({ UPSTREAM_METASEARCH_URL: upstream.url, UPSTREAM_RETRIES: '0' });
    const call = server.client.callTool({ name: 'search_hotels', arguments: { q: 'London', check_in: '2027-04-15', nights: 2 } }).then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await upstream.requested;
    return { ...server, upstream, call, pg: postmaster() };
  }

  it('SIGTERM with a call in flight aborts the call, stops the cluster it started and leaves no process', async () => {
    const { client, transport, tree, log, upstream, call, pg } = await callInFlight();
    try {
      process.kill(transport.pid!, 'SIGTERM');
      // the upstream request is given up (its connection closed by the server, not by the upstream)
      await upstream.aborted;
      // and the call is never answered: the connection closes under it
      expect(await call).toMatch(/closed/i);
      // nothing is sent SIGKILL here: everything the server started ends by itself
      await waitFor(async () => tree.every((pid) => !alive(pid)), { what: 'every process of the server to end', timeoutMs: 10_000 });
      expect(alive(pg)).toBe(false);
      expect(log()).toContain('"reason":"SIGTERM"');
      // a clean stop (a killed postmaster leaves its pid file behind)
      expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      await client.close();
      upstream.close();
    }
  }, 120_000);

  it('after SIGKILL with a call in flight, the next launch stops the orphaned cluster and starts its own', async () => {
    const { client, transport, upstream, call, pg } = await callInFlight();
    try {
      const pid = transport.pid!;
      process.kill(pid, 'SIGKILL');
      await call;
      await waitFor(async () => !alive(pid), { what: 'the killed server to end' });
      // nothing could stop the cluster: it runs on, orphaned
      expect(alive(pg)).toBe(true);
      const next = await started();
      expect(alive(pg)).toBe(false);
      expect(postmaster()).not.toBe(pg);
      await next.client.close();
      await waitFor(async () => next.tree.every((p) => !alive(p)), { what: 'the next server and its cluster to end', timeoutMs: 10_000 });
    } finally {
      await client.close();
      upstream.close();
    }
  }, 120_000);

  it('a cluster a process started is stopped however that process exits', async () => {
    // what the stdio server relies on when closing runs past its deadline: process.exit with the cluster still up
    const script = `const { startEmbeddedPostgres } = await import(${JSON.stringify(path.join(REPO, 'dist/src/db/embedded.js'))});
      await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${env.EMBEDDED_PG_PORT} });
      process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(path.join(dataDir, 'pg', 'postmaster.pid'))}, 'utf8').split('\\n')[0]);
      process.exit(0);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script.replace("require('node:fs')", "(await import('node:fs')).default")], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const pg = Number(out);
    expect(pg).toBeGreaterThan(0);
    await waitFor(async () => !alive(pg), { what: 'the postmaster to end with the process that started it', timeoutMs: 10_000 });
  }, 120_000);
});

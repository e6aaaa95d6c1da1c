/**
 * The stdio server exactly as the README tells a desktop user to launch it: the command and
 * arguments are read out of README.md, so the two cannot drift.
 */
import fs from 'node:fs';
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
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
describe.skipIf(suite.missing)(suite.title, () => {
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
    const failed = (await svc.deps.sql<{ path: string; status: number }[]>`SELECT DISTINCT path, status FROM request_history WHERE status >= 400`).map((r) => `${r.path} ${r.status}`);
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
  async function started(): Promise<{ client: Client; transport: StdioClientTransport; tree: number[]; log: () => string }> {
    const transport = launch({ ...env, API_KEY: key }, 'pipe');
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

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)('%s ends the server and the cluster it started', async (signal) => {
    const { client, transport, tree, log } = await started();
    process.kill(transport.pid!, signal);
    await waitFor(async () => tree.every((pid) => !alive(pid)), { what: 'every process of the server to end', timeoutMs: 10_000 });
    expect(log()).toContain(`"reason":"${signal}"`);
    await client.close();
  }, 120_000);

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
});

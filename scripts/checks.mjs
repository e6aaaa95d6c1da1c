#!/usr/bin/env node
// `npm run checks` (the first half of `npm test`): the static checks, side by side.
//
// Each is a single-threaded program that mostly computes (the type checks, ESLint's type-aware
// rules, prettier); one after another they took ~90 s of a ~11 minute clean-clone CI run, with
// one of the machine's two cores idle. One per core, they take about as long as ESLint alone.
// Each check's output is printed whole when it ends, under its name, so that outputs do not
// interleave; the exit status is non-zero when any check failed, after all have ended.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPTS = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;

/**
 * The package.json scripts `npm test` runs before vitest (each also runs alone: `npm run lint` …),
 * longest first: ESLint takes one core while the others follow one another on the next.
 */
const CHECKS = ['lint', 'typecheck:types', 'format:check', 'typecheck:sources', 'lint:layers', 'lint:unused'];

/** Runs one script as npm would (its shell, node_modules/.bin first on the PATH) without npm's own start-up. */
function run(name) {
  const started = performance.now();
  const command = SCRIPTS[name];
  return new Promise((resolve) => {
    const env = { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
    const child = spawn(command, { cwd: ROOT, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const done = (code, error) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`\n${ok ? '✓' : '✗'} npm run ${name} (${command}): ${ok ? 'passed' : `failed (${error ?? `exit ${code}`})`} in ${seconds} s\n`);
      if (out.trim()) process.stdout.write(`${out.trimEnd()}\n`);
      resolve(ok);
    };
    child.once('error', (err) => done(null, err.message));
    child.once('close', (code, signal) => done(code, signal ?? undefined));
  });
}

// As many at a time as there are cores: more only makes each slower (they are CPU-bound).
const queue = [...CHECKS];
const results = [];
const lane = async () => {
  for (let name = queue.shift(); name; name = queue.shift()) results.push(await run(name));
};
await Promise.all(Array.from({ length: Math.max(1, Math.min(os.availableParallelism(), CHECKS.length)) }, lane));
const failed = results.filter((ok) => !ok).length;
process.stdout.write(failed ? `\n${failed} of ${CHECKS.length} checks failed\n` : `\nall ${CHECKS.length} checks passed\n`);
process.exit(failed ? 1 : 0);

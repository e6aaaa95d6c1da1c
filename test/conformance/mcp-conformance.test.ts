/**
 * The official MCP conformance suite against /mcp at both protocol revisions the server serves.
 * Every check passes except those of capabilities the server does not offer (or of the suite's
 * own fixture resources), which the expected-failures file of each revision lists with its
 * reason; the suite itself fails a run on
 * an unexpected failure and on a listed check that now passes. Outside CI, a machine that cannot
 * fetch the suite's Node 22 reports this file skipped; in CI that is a failure.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { conformanceToolchain, keyProxy, readResults, SUITE_PACKAGE } from './toolchain.js';

const toolchain = await conformanceToolchain();
if ('unavailable' in toolchain && process.env.CI) throw new Error(`conformance suite required in CI: ${toolchain.unavailable}`);
const title = 'unavailable' in toolchain ? `MCP conformance suite [SKIPPED: ${toolchain.unavailable}]` : `MCP conformance suite (${SUITE_PACKAGE})`;

describe.skipIf('unavailable' in toolchain)(title, () => {
  let svc: TestService;
  let proxy: Awaited<ReturnType<typeof keyProxy>>;

  beforeAll(async () => {
    svc = await startTestService();
    proxy = await keyProxy(svc.url, (await svc.key()).key);
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });

  it.each(['2025-11-25', '2026-07-28'])(
    'revision %s: every check of what the server offers passes',
    async (revision) => {
      const { node, cli } = toolchain as { node: string; cli: string };
      const outDir = path.resolve('test-artifacts/conformance', revision);
      fs.rmSync(outDir, { recursive: true, force: true });
      const baseline = path.resolve('test/conformance', `expected-failures-${revision}.yaml`);
      const args = [cli, 'server', '--url', proxy.url, '--suite', 'all', '--spec-version', revision, '--expected-failures', baseline, '-o', outDir];
      const outcome = await promisify(execFile)(node, args, { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }).then(
        () => ({ code: 0, output: '' }),
        (err: { code?: number; stdout?: string }) => ({ code: err.code ?? -1, output: err.stdout ?? '' }),
      );
      const results = readResults(outDir);
      const table = results.map(
        (r) => `${r.failed ? '✗' : '✓'} ${r.scenario}: ${r.passed} passed, ${r.failed} failed${r.failed ? ` (${r.failedChecks.join(', ')})` : ''}`,
      );
      fs.writeFileSync(path.join(outDir, 'summary.txt'), `${table.join('\n')}\n`);
      expect(outcome.code, outcome.output.slice(outcome.output.indexOf('=== SUMMARY'))).toBe(0);
      // the scenarios of what the server offers ran and passed in full
      for (const scenario of [
        'tools-list',
        'resources-list',
        'dns-rebinding-protection',
        ...(revision === '2026-07-28' ? ['http-header-validation', 'sep-2164-resource-not-found'] : ['server-initialize', 'ping']),
      ]) {
        expect(
          results.find((r) => r.scenario === scenario),
          scenario,
        ).toMatchObject({ failed: 0 });
        expect(results.find((r) => r.scenario === scenario)!.passed, scenario).toBeGreaterThan(0);
      }
    },
    300_000,
  );
});

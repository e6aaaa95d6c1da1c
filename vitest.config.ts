import { defineConfig } from 'vitest/config';

/**
 * Three projects, one run (`npm test` runs them all; `npx vitest run --project unit` one of them):
 * - unit: test/unit/<layer>/…, pure code and parsers on recorded payloads; its files share their
 *   worker's loaded modules (isolate: false: nothing of theirs is left to leak, a test that fakes the
 *   clock restores it), which halves the project's time (28 -> 14 s), most of it module loading;
 * - integration: test/integration/<door-or-capability>/…, the service in the test process over
 *   real HTTP and a real PostgreSQL (browser tests included);
 * - process: test/process/ and test/conformance/, which spawn the service, workers, CLIs and the
 *   stdio server as their own processes, kill them, or run external suites against them: they wait
 *   on process start-up and shutdown, so they get longer timeouts.
 * One global setup for all (the root project's: the build, the fixture check, one PostgreSQL).
 */
const common = { pool: 'forks' as const, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // three files at a time on two cores: the process tests spend most of their time waiting on the
    // processes they start (measured: 508 s with two, 445 s with three on a quiet machine)
    maxWorkers: 3,
    // CI also writes a JSON report, from which .ci/run prints the plain closing line
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-artifacts/vitest.json' }]] : ['default'],
    projects: [
      { test: { ...common, name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000, isolate: false } },
      { test: { ...common, name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          ...common,
          name: 'process',
          include: ['test/process/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints the plain closing line
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-artifacts/vitest.json' }]] : ['default'],
  },
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC } from '../../../src/config/config.js';

describe('README', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  it('documents every setting of the configuration schema', () => {
    const missing = Object.keys(CONFIG_DOC).filter((k) => !readme.includes(`\`${k}\``));
    expect(missing).toEqual([]);
  });
  it('gives the two set-up commands, and .ci/run calls the test one', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    const ci = fs.readFileSync('.ci/run', 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test\b/m);
  });
});

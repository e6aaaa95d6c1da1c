import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Docs that cannot drift from the code: the README's descriptor example is the compiled
 * docs/descriptor-example.ts, the docs state no test count or suite time (the last CI run's closing
 * line says those), and every file a comment in src/ or tools/ names exists.
 */
const REPO = path.resolve(import.meta.dirname, '../../..');
const SHARED = path.resolve(REPO, '../shared');
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');

function filesUnder(root: string, skip = new Set(['node_modules', 'dist', '.git', 'test-artifacts'])): string[] {
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(p);
      } else out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out;
}

describe('docs that cannot drift', () => {
  it("the README's descriptor example is docs/descriptor-example.ts's descriptor, as compiled", () => {
    const example = read('docs/descriptor-example.ts');
    const descriptor = example.slice(example.indexOf('export const'));
    const section = /## Adding an operation[\s\S]*?```ts\n([\s\S]*?)```/.exec(read('README.md'))?.[1];
    expect(section).toBe(descriptor);
  });

  it('states no test count or suite duration (the last CI run says them)', () => {
    const docs = ['README.md', ...fs.readdirSync(path.join(REPO, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];
    const claims = docs.flatMap((file) =>
      [...read(file).matchAll(/\b\d[\d,]* (?:tests|test files)\b|npm test[^.\n]*?\b\d+(?:\.\d+)? ?(?:minutes|min|s)\b/g)].map((m) => `${file}: ${m[0]}`),
    );
    expect(claims).toEqual([]);
  });

  it('every file a comment in src/ or tools/ names exists (in the repository or ../shared)', () => {
    const repoFiles = filesUnder(REPO);
    const known = [...repoFiles, ...filesUnder(SHARED).map((f) => `shared/${f}`)];
    const exists = (rel: string) => known.some((x) => x === rel || x.endsWith(`/${rel}`));
    const missing: string[] = [];
    for (const file of repoFiles.filter((f) => /^(src|tools)\/.*\.ts$/.test(f))) {
      for (const [comment] of read(file).matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
        for (const m of comment.matchAll(/(?<![\w./-])((?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\/[\w.-]+\.(?:ts|md|mjs|cjs|sql|json))\b/g)) {
          const ref = m[1]!;
          // a ./ or ../ path from the file, or from the repository (../shared/…)
          const candidates = ref.startsWith('.') ? [path.dirname(file), '.'].map((from) => path.relative(REPO, path.resolve(REPO, from, ref))) : [ref];
          if (!candidates.some((rel) => exists(rel.replace(/^\.\.\//, '')))) missing.push(`${file}: ${ref}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

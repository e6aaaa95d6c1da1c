import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC } from '../../../src/config/config.js';
import { TOOLS } from '../../../tools/index.js';

/**
 * The README (a product page) and the reference in docs/ it links to: every setting documented,
 * every link and anchor resolving, the counts it states computed from the registry, the claim
 * about who reads the environment true, and the layout matching the folders.
 */
const REPO = path.resolve(import.meta.dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const readme = read('README.md');

/** Markdown without its fenced code blocks (links and headings there are not links or headings). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe('README and docs/', () => {
  it('documents every setting of the configuration schema in docs/configuration.md, and only those', () => {
    const configuration = read('docs/configuration.md');
    const rows = [...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect(Object.keys(CONFIG_DOC).filter((k) => !rows.includes(k))).toEqual([]);
    expect(rows.filter((k) => !(k! in CONFIG_DOC))).toEqual([]);
    expect(readme).toContain('docs/configuration.md');
  });

  it('gives the two set-up commands, and .ci/run calls the test one', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    const ci = read('.ci/run');
    // exactly the README's command, once on the machine's Node and once on Node 24
    expect(ci).toMatch(/\{ npm ci && npm test; \}/);
    expect(ci).toMatch(/^suite machine$/m);
    expect(ci).toMatch(/^PATH="\$bin24:\$PATH" suite node24$/m);
  });

  it('states the operation and MCP tool counts of the registry', () => {
    const operations = TOOLS.length;
    const mcpTools = TOOLS.filter((t) => t.mcp.expose).length;
    const claims = DOCS.flatMap((file) => [...read(file).matchAll(/\b(\d+) (operations|MCP tools)\b/g)].map((m) => ({ file, n: Number(m[1]), what: m[2] })));
    expect(
      claims
        .filter((c) => c.file === 'README.md')
        .map((c) => c.what)
        .sort(),
    ).toEqual(['MCP tools', 'operations']);
    for (const c of claims) expect(c, `${c.file}: ${c.n} ${c.what}`).toMatchObject({ n: c.what === 'operations' ? operations : mcpTools });
  });

  it('the desktop snippet of the README (which the stdio tests launch) is the one docs/mcp.md shows', () => {
    const snippet = (text: string) => [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b!.includes('"mcpServers"'));
    expect(snippet(readme)).toBeDefined();
    expect(snippet(read('docs/mcp.md'))).toBe(snippet(readme));
  });

  it('every relative link and anchor resolves', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1]!;
        if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
        const [target, anchor] = href.split('#') as [string, string | undefined];
        const resolved = target ? path.resolve(REPO, path.dirname(file), target) : path.join(REPO, file);
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${href} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${file}: ${href} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('only the stdio entry reads a variable of the environment outside src/config, as docs/configuration.md says', () => {
    const reads = new Set<string>();
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    for (const file of walk(path.join(REPO, 'src')).filter((f) => f.endsWith('.ts') && !f.includes(`${path.sep}config${path.sep}`))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/process\.env(?:\.([A-Za-z_]\w*)|\[\s*['"`]([^'"`]+)['"`]\s*\])/g))
        reads.add(`${path.relative(REPO, file)} ${m[1] ?? m[2]}`);
    }
    expect([...reads]).toEqual(['src/mcp-stdio.ts API_KEY']);
    expect(read('docs/configuration.md')).toContain('`API_KEY`, which the stdio entry (`src/mcp-stdio.ts`)');
  });

  it('the layout lists every folder of the repository, src/ and test/, and nothing that is not there', () => {
    const block = /## Layout\s+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const listed = block
      .split('\n')
      .map((l) => l.split(/\s+/)[0]!)
      .filter(Boolean);
    // a listed path exists (a <placeholder> stands for the folders under it)
    for (const entry of listed) expect(fs.existsSync(path.join(REPO, entry.replace(/<[^>]+>\/?$/, ''))), entry).toBe(true);
    const dirs = (rel: string) =>
      fs
        .readdirSync(path.join(REPO, rel), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => `${rel ? `${rel}/` : ''}${e.name}/`);
    const ignored = new Set(['node_modules/', 'dist/', 'test-artifacts/']);
    const expected = [
      ...dirs('').filter((d) => !ignored.has(d) && !fs.readFileSync(path.join(REPO, '.gitignore'), 'utf8').includes(d)),
      ...dirs('src'),
      ...dirs('src/doors'),
      ...dirs('test'),
      ...dirs('tools'),
    ].filter((d) => d !== 'src/doors/');
    // a folder is covered by its own line or by lines for what it holds
    const covered = (d: string) => listed.some((l) => l.startsWith(d));
    expect(expected.filter((d) => !covered(d))).toEqual([]);
    for (const file of fs.readdirSync(path.join(REPO, 'src')).filter((f) => f.endsWith('.ts'))) expect(listed, `src/${file}`).toContain(`src/${file}`);
  });
});

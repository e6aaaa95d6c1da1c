#!/usr/bin/env node
// `npm run build`: what `npm start`, `npm run worker` and the stdio server run, in dist/.
//
// Each TypeScript file of src/ and tools/ is transpiled on its own (TypeScript's transpileModule:
// the project is written for it, `isolatedModules` and `verbatimModuleSyntax`), to the same path
// under dist/; every other file there (openapi-examples.json …) and migrations/*.sql are copied, so
// that a module finds what it reads next to itself (new URL('./x', import.meta.url)) as it does in
// the sources. Types are checked by `npm test` (tsc --noEmit), not here: the build loads no type
// declarations (a full build is a few seconds, one with nothing to do a tenth of a second). Last,
// it writes the MCP tool listing of the compiled modules (dist/mcp-tool-listing.json), which the
// stdio server serves instead of converting every tool's schemas at each launch. And it bundles each
// MCP App (src/doors/mcp/apps/views/<name>.view.ts with what it imports, CSS included) into one
// self-contained page, dist/apps/<name>.html, which the MCP door serves as a ui:// resource.
//
// It is incremental and safe to run while the service runs or while another build runs: a file
// is rewritten only when its source is newer (or the build itself changed), always through a
// temporary file and a rename, so a process starting meanwhile reads the old file or the new one,
// never half of one; files whose source is gone are removed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist');
/** Trees compiled and copied to the same place under dist/. */
const TREES = ['src', 'tools', 'migrations'];
/** The MCP tool listing of the compiled modules, read by the stdio server at launch (src/mcp-stdio.ts). */
const LISTING = path.join(OUT, 'mcp-tool-listing.json');
/** A change of these rebuilds everything. */
/** The MCP Apps' sources and the pages made of them. */
const VIEWS = path.join(ROOT, 'src', 'doors', 'mcp', 'apps', 'views');
const APPS_OUT = path.join(OUT, 'apps');
const INPUTS = [fileURLToPath(import.meta.url), path.join(ROOT, 'tsconfig.json'), path.join(ROOT, 'package-lock.json')];

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

const mtime = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;

/** Writes through a temporary file and a rename: readers see the old content or the new, whole. */
function writeAtomically(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** dist/ path of a source file: .ts becomes .js, the rest keeps its name. */
function target(source) {
  const rel = path.relative(ROOT, source);
  return path.join(OUT, rel.endsWith('.ts') ? rel.replace(/\.ts$/, '.js') : rel);
}

/**
 * buildToolTable(TOOLS).listing of the compiled modules, in a process of its own (it loads the
 * whole registry). It also proves that every compiled module loads: the build checks no types.
 */
function toolListing() {
  const script = `const { TOOLS } = await import(${JSON.stringify(new URL('../dist/tools/index.js', import.meta.url).href)});
const { buildToolTable } = await import(${JSON.stringify(new URL('../dist/src/doors/mcp/mcp.js', import.meta.url).href)});
process.stdout.write(JSON.stringify(buildToolTable(TOOLS).listing));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`build failed: the compiled registry did not load (exit ${r.status})`);
  return r.stdout;
}

/**
 * Each app as one HTML page: its entry bundled (esbuild, minified, nothing left to fetch) with its
 * CSS inlined. Made again when any file of the views is newer than the pages (all share the kit).
 */
async function buildApps(rebuildAll) {
  const entries = fs.readdirSync(VIEWS).filter((f) => f.endsWith('.view.ts'));
  const newest = Math.max(...walk(VIEWS).map(mtime));
  const pages = entries.map((f) => path.join(APPS_OUT, f.replace(/\.view\.ts$/, '.html')));
  const expected = new Set(pages);
  const orphans = fs.existsSync(APPS_OUT) ? walk(APPS_OUT).filter((f) => !expected.has(f)) : [];
  for (const file of orphans) fs.rmSync(file, { force: true });
  if (!rebuildAll && pages.every((p) => mtime(p) >= newest)) return 0;
  const esbuild = await import('esbuild');
  for (const [i, entry] of entries.entries()) {
    const out = await esbuild.build({
      entryPoints: [path.join(VIEWS, entry)],
      bundle: true,
      minify: true,
      format: 'iife',
      target: 'es2022',
      write: false,
      outdir: APPS_OUT,
      legalComments: 'none',
      logLevel: 'error',
    });
    const text = (ext) => out.outputFiles.find((f) => f.path.endsWith(ext))?.text.trim() ?? '';
    const title = entry.replace(/\.view\.ts$/, '');
    // a script's text may not close its own element early
    const script = text('.js').replaceAll('</script', '<\\/script');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${text('.css')}</style></head><body><main aria-busy="true"></main><script>${script}</script></body></html>\n`;
    writeAtomically(pages[i], html);
  }
  return entries.length;
}

async function main() {
  const stamp = path.join(OUT, '.build-inputs');
  const inputs = INPUTS.map((f) => `${path.relative(ROOT, f)} ${mtime(f)}`).join('\n');
  const rebuildAll = !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== inputs;
  const sources = TREES.flatMap((t) => walk(path.join(ROOT, t))).filter((f) => !f.endsWith('.d.ts'));
  const stale = sources.filter((s) => rebuildAll || mtime(target(s)) < mtime(s));
  const toCompile = stale.filter((s) => s.endsWith('.ts'));
  // what no source produces any more (a deleted module, a renamed migration)
  const expected = new Set(sources.map(target));
  const orphans = TREES.flatMap((t) => (fs.existsSync(path.join(OUT, t)) ? walk(path.join(OUT, t)) : [])).filter(
    (f) => !expected.has(f) && !f.endsWith('.tmp'),
  );

  // the listing describes the modules as they are: gone before any of them changes, made again after
  if (toCompile.length > 0 || orphans.length > 0) fs.rmSync(LISTING, { force: true });
  if (toCompile.length > 0) {
    // loaded only when something is to compile: a build with nothing to do is over in a tenth of a second
    const ts = createRequire(import.meta.url)('typescript');
    const { options } = ts.convertCompilerOptionsFromJson(JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions, ROOT);
    // every file is an ES module (package.json "type": "module"), emitted as written apart from its types
    const compilerOptions = {
      ...options,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: false,
      declaration: false,
      sourceMap: false,
    };
    for (const source of toCompile) {
      const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(source, 'utf8'), { compilerOptions, fileName: source, reportDiagnostics: true });
      if (diagnostics?.length) {
        const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' });
        throw new Error(`build failed:\n${text}`);
      }
      writeAtomically(target(source), outputText);
    }
  }
  for (const source of stale.filter((s) => !s.endsWith('.ts'))) writeAtomically(target(source), fs.readFileSync(source));
  for (const file of orphans) fs.rmSync(file, { force: true });
  if (!fs.existsSync(LISTING)) writeAtomically(LISTING, toolListing());
  const apps = await buildApps(rebuildAll);
  if (rebuildAll) writeAtomically(stamp, inputs);
  if (stale.length || orphans.length || apps)
    console.error(`build: ${toCompile.length} compiled, ${stale.length - toCompile.length} copied, ${orphans.length} removed, ${apps} apps bundled (dist/)`);
}

await main();

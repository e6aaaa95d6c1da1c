#!/usr/bin/env node
// `npm run typecheck` (and `npm test`): the stricter check of src/sources, after `tsc --noEmit`.
//
// tsconfig.sources.json adds `noUncheckedIndexedAccess` and types/json-unknown.d.ts (JSON.parse and
// Array.isArray give unknown) for the parsers of upstream data, where an index or a field may be
// missing at any time. A compiler option holds for a whole program, and the sources import modules
// of lower layers (upstream, platform, domain) that are not written for these options yet; so this
// checks the program and reports the diagnostics of src/sources only. When every layer passes,
// `tsc --noEmit -p tsconfig.sources.json` can replace this script (or the options move into
// tsconfig.json).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = path.join(ROOT, 'tsconfig.sources.json');
const SCOPE = path.join(ROOT, 'src', 'sources') + path.sep;

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, host);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const inScope = program.getSourceFiles().filter((f) => path.resolve(f.fileName).startsWith(SCOPE));
const diagnostics = [
  ...config.errors,
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...inScope.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
];
if (diagnostics.length) fail(diagnostics);
console.log(`typecheck-sources: ${inScope.length} files of src/sources pass (noUncheckedIndexedAccess, JSON.parse and Array.isArray unknown)`);

function fail(list) {
  const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(list, formatHost));
  process.stderr.write(`\ntypecheck-sources: ${list.length} error(s) in src/sources\n`);
  process.exit(1);
}

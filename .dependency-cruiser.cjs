/**
 * The layers, top to bottom; a module may import its own layer and those below it, never one above.
 * Type-only imports count (tsPreCompilationDeps), and no import circle is allowed, types included.
 * `npm test` runs `npm run lint:layers` (depcruise) before the suites.
 */
const LAYERS = [
  ['entry', '^src/(main|worker|mcp-stdio)\\.ts$|^src/cli/|^src/app/'],
  ['doors', '^src/doors/|^src/workers/'],
  ['kernel', '^tools/|^src/core/'],
  ['sources', '^src/sources/'],
  ['upstream', '^src/upstream/'],
  ['platform', '^src/platform/|^src/jobs/|^src/ops/'],
  ['db', '^src/db/'],
  ['config', '^src/config/'],
  ['domain', '^src/domain/'],
];

const upward = LAYERS.slice(1).map(([name, path], i) => ({
  name: `no-import-up-from-${name}`,
  comment: `${name} may not import a layer above it (${LAYERS.slice(0, i + 1)
    .map(([n]) => n)
    .join(', ')})`,
  severity: 'error',
  from: { path },
  to: {
    path: LAYERS.slice(0, i + 1)
      .map(([, p]) => p)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'kernel-core-below-descriptors',
      comment: 'the tool kernel (src/core) serves the descriptors (tools/); it never imports them',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^tools/' },
    },
    {
      name: 'no-circular',
      comment: 'no import circle, type-only imports included',
      severity: 'error',
      from: { path: '^(src|tools)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|bench|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};

// The code's lint rules (issue 27): typescript-eslint's type-checked recommendations on the
// service (src, tools), its plain recommendations on tests, benchmarks and scripts; formatting
// is prettier's (eslint-config-prettier turns off every rule that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// The Node globals the plain JavaScript files (scripts, bin, configs) use; TypeScript files get theirs from @types/node.
const nodeGlobals = { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'coverage/**', '.data/**', '.test-data/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-named bindings are deliberate: an unused handler argument kept for its position
      // (express's error middleware needs four), a key left out of a rest copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'tools/**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers and booleans print as themselves in a template; only objects, unknowns and nullish values are refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    // The parsers are compiled with stricter options (tsconfig.sources.json: noUncheckedIndexedAccess,
    // JSON.parse and Array.isArray give unknown): linted with the same, an assertion such as `m[1]!`
    // that the stricter compiler needs is not taken for an unnecessary one.
    files: ['src/sources/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.sources.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read the service's JSON answers (response.json(), MCP results) and
      // assert on them: typing every answer there would only restate the schemas under test.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, module: 'writable', require: 'readonly' } },
  },
  prettier,
);

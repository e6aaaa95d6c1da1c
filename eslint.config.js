// The code's lint rules (issue 27): typescript-eslint's type-checked recommendations on the
// service (src, tools), its plain recommendations on tests, benchmarks and scripts; formatting
// is prettier's (eslint-config-prettier turns off every rule that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'tools/**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  prettier,
);

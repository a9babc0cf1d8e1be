// Type-checked lint for everything TypeScript; layout rules live in .dependency-cruiser.cjs.
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'docs/', 'bench/results/', 'src/client/schema.d.ts', 'studio/dist/', 'test/browser/artifacts/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { globals: globals.node, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_name` marks what a signature needs but the body does not; rest siblings drop fields on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // An AbortSignal's reason is typed any; it is the Error the aborting side chose.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
    },
  },
  {
    // The studio runs in the browser; a component's markup counts as lines, so its functions may be longer.
    files: ['studio/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // A routes file is a declarative table of routes; its plugin function is as long as the table.
    files: ['src/**/routes.ts', 'src/**/*-routes.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // The client and its examples show what a user writes: types flow from the API document, never from a cast.
    files: ['src/client/**/*.ts', 'examples/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
  {
    // Fastify plugins and handlers are async by contract even when they await nothing.
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Tests and benchmarks read untyped JSON from the service, and node:test's test() promises are awaited by the runner.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The architecture, enforced: dependencies point inward. The domain imports no other package of
// ours and nothing that does I/O; each adapter imports the domain only; the app composes and
// knows no HTTP framework; suites and benchmarks use the packages' public entry points only.
const packageSources = '**/src/**';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', '.ci-out/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    ignores: ['packages/domain/src/**/*.test.ts', 'packages/domain/src/test-support/**'],
    rules: {
      // The domain is pure: no I/O, no framework, no other package of ours.
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'hono', 'hono/*', '@hono/*', 'mongodb', '@inkwell/*', 'bcryptjs', 'jose', 'pino', 'piscina'] },
      ],
    },
  },
  {
    files: ['packages/adapters-*/src/**/*.ts'],
    rules: {
      // An adapter knows the domain and its own library, never the app or another adapter.
      'no-restricted-imports': ['error', { patterns: ['@inkwell/app', '@inkwell/adapters-*', packageSources] }],
    },
  },
  {
    files: ['packages/adapters-http/src/routes/**/*.ts'],
    rules: {
      // The routes load with the app; the OpenAPI builder and its converter load on the first
      // GET /openapi.json. A route's operation uses the converter through what it is called with.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/openapi/components.js', '**/openapi/converter.js', '**/openapi/document.js', '**/openapi/paths.js'],
              allowTypeImports: true,
              message: 'The OpenAPI builder loads on first request: take the converter from the operation context.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/app/src/**/*.ts'],
    rules: {
      // The composition root builds and wires adapters; everything that knows HTTP is in adapters-http.
      'no-restricted-imports': ['error', { patterns: ['hono', 'hono/*', '@hono/*', packageSources] }],
    },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [packageSources] }],
    },
  },
);

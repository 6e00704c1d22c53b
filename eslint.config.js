import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
        { patterns: ['node:*', 'hono', 'hono/*', 'mongodb', '@inkwell/*', 'bcryptjs', 'jose', 'pino'] },
      ],
    },
  },
  {
    files: ['packages/adapters-*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@inkwell/app', '@inkwell/adapters-*', '**/src/**'] }],
    },
  },
);

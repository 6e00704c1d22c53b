import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'tests',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});

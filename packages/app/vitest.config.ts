import { defineProject } from 'vitest/config';
import { expectDefaults } from '../../vitest.workspace.js';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'app',
    expect: expectDefaults,
    include: ['src/**/*.test.ts'],
  },
});

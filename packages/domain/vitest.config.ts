import { defineProject } from 'vitest/config';
import { expectDefaults } from '../../vitest.workspace.js';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'domain',
    expect: expectDefaults,
    include: ['src/**/*.test.ts'],
    // Pure code without globals to reset: the files share a worker instead of starting one each,
    // which cost more than most of them take to run.
    isolate: false,
  },
});

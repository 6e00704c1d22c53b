import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'domain',
    include: ['src/**/*.test.ts'],
    // Pure code without globals to reset: the files share a worker instead of starting one each,
    // which cost more than most of them take to run.
    isolate: false,
  },
});

import { defineProject } from 'vitest/config';
import { expectDefaults, NODE_LINE_EXCLUDED, NODE_LINE_TESTS, nodeLineSuitesOnly } from '../vitest.workspace.js';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'tests',
    expect: expectDefaults,
    // On an older Node.js line (NODE_LINE_SUITES=1), the suites that can differ between lines.
    include: nodeLineSuitesOnly ? NODE_LINE_TESTS : ['**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(nodeLineSuitesOnly ? NODE_LINE_EXCLUDED : [])],
  },
});

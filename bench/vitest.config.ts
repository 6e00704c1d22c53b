import { defineProject } from 'vitest/config';
import { expectDefaults } from '../vitest.workspace.js';

export default defineProject({
  test: {
    name: 'bench',
    expect: expectDefaults,
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});

// The test projects: one per package, the acceptance suites in tests/, and the bench's own checks. vitest.config.ts
// runs them as its `test.projects`; each project's own vitest.config.ts names it and sets it up.
// The suites that serve over sockets run a second time with the serving layer's fast path off
// (FAST_PATH=off, which every server they start takes), so both ways are checked on every run.
export default [
  'packages/domain',
  'packages/adapters-http',
  'packages/adapters-mongo',
  'packages/app',
  'tests',
  'bench',
  {
    root: './tests',
    resolve: { conditions: ['source'] },
    ssr: { resolve: { conditions: ['source'] } },
    test: {
      name: 'tests, fast path off',
      include: ['http-api/**/*.test.ts', 'hardening/**/*.test.ts'],
      exclude: ['**/node_modules/**'],
      env: { FAST_PATH: 'off' },
    },
  },
];

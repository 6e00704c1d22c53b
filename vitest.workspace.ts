// The test projects: one per package, and the acceptance suites in tests/. vitest.config.ts
// runs them as its `test.projects`; each project's own vitest.config.ts names it and sets it up.
export default ['packages/domain', 'packages/adapters-http', 'packages/adapters-mongo', 'packages/app', 'tests'];

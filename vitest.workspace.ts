// The test projects: one per package, the acceptance suites in tests/, and the bench's own checks. vitest.config.ts
// runs them as its `test.projects`; each project's own vitest.config.ts names it and sets it up.
export default ['packages/domain', 'packages/adapters-http', 'packages/adapters-mongo', 'packages/app', 'tests', 'bench'];

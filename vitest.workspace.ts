// The test projects, one per package. Vitest 4 no longer reads this file on its own:
// vitest.config.ts hands the list to `test.projects`.
export default ['packages/domain', 'packages/adapters-http', 'packages/adapters-mongo', 'packages/app', 'tests'];

// The test projects: one per package, the acceptance suites in tests/, and the bench's own checks. vitest.config.ts
// runs them as its `test.projects`; each project's own vitest.config.ts names it and sets it up.
// The suites that serve over sockets run a second time with the serving layer's fast path off
// (FAST_PATH=off, which every server they start takes), so both ways are checked on every run;
// the files among them that never serve (IN_PROCESS_ONLY) run once.
//
// With NODE_LINE_SUITES=1 (what .ci/run sets on the maintained Node.js lines older than the
// workspace's runtime), only what can differ between Node.js lines runs, fast path on, as
// production serves: every package's own tests (the published packages promise those lines in
// their `engines`, the serving layer rests on Node's HTTP internals, the app on its crypto,
// worker threads and cluster, adapters-mongo holds the MongoDB driver's integration) and, of
// tests/, the folders NODE_LINE_TESTS names. CONTRIBUTING.md, "Which suites run on which
// Node.js", says why each.

/** True when this run is an older Node.js line's: NODE_LINE_SUITES=1. */
export const nodeLineSuitesOnly = process.env.NODE_LINE_SUITES === '1';

/**
 * The suites of tests/ (globs relative to it) that run on the older Node.js lines too: those that
 * drive Node's HTTP server over raw sockets on the memory store, real server processes (a cluster
 * among them), the contract over a socket once, and the published packages as npm installs them.
 * Their MongoDB variants (`*.integration.test.ts`) run the same code on the same Node.js with the
 * store swapped: the driver's part of them is adapters-mongo's own tests, which run on every line.
 * The rest of tests/ (CI's scripts, the OpenAPI document and /docs, the link pages, the README's
 * examples) and the bench's checks run on the workspace's runtime only.
 */
export const NODE_LINE_TESTS = [
  'hardening/*.test.ts',
  'http-api/memory-store.test.ts',
  'http-api/password-hashing.test.ts',
  'processes/*.test.ts',
  'packages/*.test.ts',
];

/**
 * The files of http-api/ and hardening/ that drive the app in this process through `app.request`
 * alone, never a socket: the fast path is not on their way, so the run with it off would repeat
 * them word for word. tests/ci/node-line-suites.test.ts checks that none of them serves.
 */
export const IN_PROCESS_ONLY = [
  'http-api/memory-store.test.ts',
  'hardening/fuzz.test.ts',
  'hardening/fuzz.integration.test.ts',
  'hardening/mail-budgets.test.ts',
  'hardening/mail-budgets.integration.test.ts',
];

/**
 * Of NODE_LINE_TESTS, what is left to the workspace's runtime: the MongoDB variants, but the
 * clusters' (node:cluster), and the hardening files that never serve over a socket (IN_PROCESS_ONLY),
 * which do not reach Node's HTTP server.
 */
export const NODE_LINE_EXCLUDED = [
  'hardening/*.integration.test.ts',
  'processes/!(cluster|cluster-supervision).integration.test.ts',
  ...IN_PROCESS_ONLY.filter((path) => path.startsWith('hardening/')),
];

/**
 * What every project's `expect` starts from. `expect.poll` waits for something that will happen
 * (a log line, a mail, a page's alert): vitest's default of one second is too short for a 2-core CI
 * machine running two test files beside their servers and browsers, and a longer wait costs time
 * only when the awaited thing never comes, that is when the test fails anyway.
 */
export const expectDefaults = { poll: { timeout: 10_000 } };

/** The suites that serve over sockets, once more with the fast path off. */
const fastPathOff = {
  root: './tests',
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'tests, fast path off',
    include: ['http-api/**/*.test.ts', 'hardening/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...IN_PROCESS_ONLY],
    env: { FAST_PATH: 'off' },
    expect: expectDefaults,
  },
};

export default [
  'packages/domain',
  'packages/adapters-http',
  'packages/adapters-mongo',
  'packages/app',
  'tests',
  ...(nodeLineSuitesOnly ? [] : ['bench', fastPathOff]),
];

// The layering rule that `pnpm lint` checks with dependency-cruiser: no import cycle in any
// package, between two modules or between two folders. A folder is a layer (in the domain
// `shared` ← `accounts` ← `posts`; in adapters-http `routes` → `openapi`, `middleware` and `node`
// → `response`): a folder may import a folder below it, never one that imports it back, however
// long the way round. Type-only imports count, since a type names what a module depends on. Tests
// are left out: nothing imports a test, so a test closes no cycle of the code it tests. And the
// HTTP adapter is thin: only its index (which exports `serveNode`) and its test support import
// the Node serving layer `src/node/`; routes, middleware and the rest use Hono's API and the
// runtime-neutral request/request-facts.ts.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Two folders import each other, directly or round a longer way: move the shared piece below both, or invert the import (a port in the lower folder).',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-serving-layer-import',
      severity: 'error',
      comment: 'Only the HTTP adapter’s index (and its test support) may import the Node serving layer (src/node/): routes and middleware ask Hono’s API and request/request-facts.ts.',
      from: { path: '(^|/)adapters-http/src/', pathNot: '(^|/)adapters-http/src/(node/|index[.]ts$|test-support/)' },
      to: { path: '(^|/)adapters-http/src/node/' },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      comment: 'Two modules import each other, directly or round a longer way.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '[.]test[.]ts$'] },
  },
};

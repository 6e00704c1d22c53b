// Run by `pnpm install` (the root's postinstall) on the `node` that the pnpm scripts run on: the
// runtime package the root's optionalDependencies pin for this platform (node_modules/.bin/node),
// or, where npm has none (Apple silicon, Windows on Arm, …), this machine's own Node.js. pnpm
// checks engines against the pinned release (pnpm-workspace.yaml's nodeVersion), so this is what
// tells, in one line, that the scripts would run on an older Node.js than the workspace needs,
// and fails the install; and that they run on this machine's own Node.js when they do.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const oldest = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];
const runtimes = Object.entries(manifest.optionalDependencies ?? {}).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));
const pinned = runtimes[0]?.[1];
const platform = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const version = process.versions.node;

const parts = (v) => v.split('.').map(Number);
const older = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  return x[0] !== y[0] ? x[0] < y[0] : x[1] !== y[1] ? x[1] < y[1] : x[2] < y[2];
};

if (version === pinned) process.exit(0);
const why = runtimes.some(([name]) => name === `node-${platform}`)
  ? `its runtime package node-${platform} was not installed`
  : `npm has no Node.js ${pinned} runtime package for ${platform}`;
if (older(version, oldest)) {
  console.error(
    `inkwell: the pnpm scripts would run on this machine's Node.js ${version} (${why}), and they need ${oldest} or newer: install Node.js ${pinned} and run pnpm install again`,
  );
  process.exit(1);
}
console.log(`inkwell: the pnpm scripts run on this machine's Node.js ${version} (${why}); inkwell is developed on ${pinned}`);

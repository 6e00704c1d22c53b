// Where inkwell's time goes under load: runs the built server with `node --cpu-prof`, loads one
// endpoint with wrk, stops it, and prints the top frames by self time (and by inclusive time
// for inkwell's own code and the libraries on the request path).
//
//   pnpm -s build && tsx bench/profile.ts [get-post|list|list-deep|me|create] [--seconds 8] [--log-level warn]
//
// The .cpuprofile stays in bench/results/raw/profiles/ (open it in Chrome DevTools or speedscope).
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sendExpecting, sendMany } from './lib/http-client.js';
import { freePort, inkwellArgs, inkwellEnv, repositoryRoot, startServer } from './lib/processes.js';
import { runWrk } from './lib/wrk.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '8' }, top: { type: 'string', default: '25' }, 'log-level': { type: 'string', default: 'info' } },
});
const scenario = positionals[0] ?? 'get-post';
const profileDir = `${repositoryRoot}bench/results/raw/profiles/`;
mkdirSync(profileDir, { recursive: true });

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** `function file:line`, with the path shortened to the package it is in. */
function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(repositoryRoot, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

function summarise(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const leaf = byId.get(id) as ProfileNode;
    const leafName = frameName(leaf);
    self.set(leafName, (self.get(leafName) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byId.get(at) as ProfileNode);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
    }
  });
  const pct = (value: number) => `${((100 * value) / total).toFixed(1).padStart(5)}%`;
  const lines = [`samples: ${(total / 1000).toFixed(0)} ms`, '', `top ${top} by self time:`];
  for (const [name, value] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(value)}  ${name}`);
  lines.push('', `top ${top} by inclusive time (JavaScript frames):`);
  const interesting = [...inclusive].filter(([name]) => /\.(m?js|ts):/.test(name) && !name.startsWith('(anonymous) node:'));
  for (const [name, value] of interesting.sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(value)}  ${name}`);
  return lines.join('\n');
}

const server = await startServer(
  {
    name: 'inkwell (profiled)',
    args: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...inkwellArgs],
    env: inkwellEnv(values['log-level']),
    readyPath: '/health',
  },
  await freePort(),
);
const before = new Set(readdirSync(profileDir));
try {
  const { token, user } = await sendExpecting<{ token: string; user: { id: string } }>(
    server.url,
    { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: 'profile@example.com', name: 'P', password: 'profile password' }) },
    201,
  );
  const body = (i: number) =>
    JSON.stringify({ title: `Post ${i} with an ordinary title`, body: 'Lorem ipsum dolor sit amet. '.repeat(12), authorId: user.id, published: true });
  // The deep page needs 400 × 20 posts; the other scenarios need only a few, and seeding is profiled too.
  await sendMany(server.url, scenario.startsWith('list') ? 10_000 : 100, 16, (i) => ({ method: 'POST', path: '/posts', body: body(i) }), 201);
  const { posts } = await sendExpecting<{ posts: Array<{ id: string }> }>(server.url, { method: 'GET', path: '/posts?perPage=1' }, 200);
  const paths: Record<string, { path: string; script: 'get' | 'post-json'; args: string[] }> = {
    'get-post': { path: `/posts/${posts[0]?.id}`, script: 'get', args: [] },
    list: { path: '/posts?page=1&perPage=20', script: 'get', args: [] },
    'list-deep': { path: '/posts?page=400&perPage=20', script: 'get', args: [] },
    me: { path: '/me', script: 'get', args: [token] },
    create: { path: '/posts', script: 'post-json', args: [body(0)] },
  };
  const target = paths[scenario];
  if (!target) throw new Error(`unknown scenario ${scenario}: one of ${Object.keys(paths).join(', ')}`);
  const result = await runWrk({ url: `${server.url}${target.path}`, script: target.script, args: target.args, connections: 50, seconds: Number(values.seconds) });
  console.log(`${scenario}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms (profiling costs throughput)`);
} finally {
  await server.stop();
}
const written = readdirSync(profileDir)
  .filter((file) => file.endsWith('.cpuprofile') && !before.has(file))
  .map((file) => `${profileDir}${file}`)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!written) throw new Error('no profile written');
console.log(`profile: ${written.replace(repositoryRoot, '')}\n`);
console.log(summarise(JSON.parse(readFileSync(written, 'utf8')) as CpuProfile, Number(values.top)));

// Instructions per request on the server's main thread, counted by valgrind's callgrind: unlike
// req/s on a shared 2-core machine, a count does not move with whatever else runs, so it shows
// differences of a few per cent. For GET /posts/:id it counts, in turn, the node:http baseline,
// the baseline's work behind a bare Hono route, inkwell with LOG_LEVEL=warn (no access line) and
// inkwell as benchmarked (LOG_LEVEL=info), and inkwell as benchmarked with POSTS_ACCESS=owner
// (the post read without a token, as anyone reads a published post). Each server runs under callgrind with instrumentation
// off, takes a warm-up so V8 has optimised the request path, then the counted requests; the count
// comes from a dump of that window alone. The warm-up matters: under valgrind V8's background
// compiles finish late, and after 10 000 requests one run still counted inkwell 35k instructions
// higher (a hot function not yet optimised); after 20 000, runs agree within about 1%. Writes
// bench/results/instructions.json. Slow (about 2 minutes per server); not part of `pnpm bench`.
//
//   pnpm -s build && tsx bench/instructions.ts [--requests 2000] [--warmup 20000] [--only owner,info]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { captureFixture, type Endpoint } from './lib/fixtures.js';
import { sendExpecting, sendMany } from './lib/http-client.js';
import { freePort, inkwellArgs, repositoryRoot, startServer, type ServerProcess } from './lib/processes.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, warmup: { type: 'string', default: '20000' }, only: { type: 'string' } },
});
/** `--only owner,info`: count only the servers whose names contain one of these; the results then go to the raw folder. */
const only = values.only?.split(',');
const REQUESTS = Number(values.requests);
const WARMUP = Number(values.warmup);
const rawDir = `${repositoryRoot}bench/results/raw/instructions/`;
const JWT_SECRET = 'bench-secret-0123456789abcdef-0123456789abcdef';
// vgdb, which callgrind_control talks through, names its pipes after USER and HOST.
const VGDB_ENV = { USER: 'bench', LOGNAME: 'bench', HOST: '127.0.0.1' };

interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Whether the server is inkwell, which must first create the post it is asked for. */
  readonly createsPost?: boolean;
}

interface Count {
  readonly name: string;
  readonly mainThread: number;
  readonly allThreads: number;
}

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(1);
}

async function startCounted(variant: Variant, outDir: string): Promise<ServerProcess> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return startServer(
    {
      name: variant.name,
      args: variant.args,
      env: { ...variant.env, ...VGDB_ENV },
      launcher: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', '--smc-check=all-non-file', `--callgrind-out-file=${outDir}cg.%p`],
      readyPath: '/health',
      readyTimeoutMs: 120_000,
    },
    await freePort(),
  );
}

function callgrindControl(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...VGDB_ENV }, stdio: 'ignore' });
}

/** The totals of the dump taken by `callgrind_control -d` (files `cg.PID.1-TT`, one per thread; thread 01 is the main one). */
function readDump(outDir: string): { mainThread: number; allThreads: number } {
  let mainThread = 0;
  let allThreads = 0;
  for (const file of readdirSync(outDir).filter((name) => /\.\d+\.1-\d+$/.test(name))) {
    const total = Number(/^summary: (\d+)/m.exec(readFileSync(`${outDir}${file}`, 'utf8'))?.[1] ?? 0);
    allThreads += total;
    if (file.endsWith('-01')) mainThread = total;
  }
  return { mainThread, allThreads };
}

async function count(variant: Variant, path: string): Promise<Count> {
  const outDir = `${rawDir}${variant.name.replace(/\W+/g, '-')}/`;
  const server = await startCounted(variant, outDir);
  try {
    if (variant.createsPost) {
      // Created inside the counted process, before the counted window; in owner mode by its author.
      const headers: Record<string, string> = variant.env.POSTS_ACCESS === 'owner' ? { Authorization: `Bearer ${await authorToken(server.url)}` } : {};
      const created = `/posts/${(await sendExpecting<{ post: { id: string } }>(server.url, { ...post, headers }, 201)).post.id}`;
      if (created !== path) throw new Error(`${variant.name} created ${created}, expected ${path}`);
    }
    const call = () => ({ method: 'GET', path });
    await sendMany(server.url, WARMUP, 8, call, 200);
    callgrindControl(server.pid, '-i', 'on');
    await sendMany(server.url, REQUESTS, 8, call, 200);
    callgrindControl(server.pid, '-d');
  } finally {
    await server.stop();
  }
  const { mainThread, allThreads } = readDump(outDir);
  const result = { name: variant.name, mainThread: mainThread / REQUESTS, allThreads: allThreads / REQUESTS };
  console.log(`${variant.name}: ${(result.mainThread / 1000).toFixed(1)}k instructions per request on the main thread (${(result.allThreads / 1000).toFixed(1)}k in all threads)`);
  return result;
}

const inkwell = (logLevel: string, postsAccess: 'open' | 'owner' = 'open'): Variant => ({
  name: `inkwell, LOG_LEVEL=${logLevel}${postsAccess === 'owner' ? ', POSTS_ACCESS=owner' : ''}`,
  args: inkwellArgs,
  env: { DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'production', LOG_LEVEL: logLevel, POSTS_ACCESS: postsAccess },
  createsPost: true,
});

/** Signs the post's author up (the first user of a fresh store) and returns the token. */
async function authorToken(url: string): Promise<string> {
  const signup = { email: 'author@example.com', name: 'Author', password: 'counted password' };
  return (await sendExpecting<{ token: string }>(url, { method: 'POST', path: '/auth/signup', body: JSON.stringify(signup) }, 201)).token;
}

// The post and the baseline's fixture come from an uncounted inkwell: a fresh memory store gives
// the same first id every time, so each counted inkwell creates the same post. Its author is the
// first user's id, so that owner mode, where the author must be the caller, answers the same bytes.
const FIRST_ID = '000000000000000000000001';
const post = { method: 'POST', path: '/posts', body: JSON.stringify({ title: 'Counted', body: 'x'.repeat(420), authorId: FIRST_ID, published: true }) };
mkdirSync(rawDir, { recursive: true });
const fixturesPath = `${rawDir}fixtures.json`;
let path: string;
{
  const source = await startServer({ ...inkwell('info'), readyPath: '/health' }, await freePort());
  try {
    path = `/posts/${(await sendExpecting<{ post: { id: string } }>(source.url, post, 201)).post.id}`;
    const endpoint: Endpoint = { name: 'GET /posts/:id', call: { method: 'GET', path }, work: 'stringify', wrk: { script: 'get', args: [] } };
    writeFileSync(fixturesPath, JSON.stringify({ jwtSecret: JWT_SECRET, fixtures: [await captureFixture(source.url, endpoint)] }));
  } finally {
    await source.stop();
  }
}

const counts: Count[] = [];
for (const variant of [
  { name: 'baseline (node:http)', args: ['--import', 'tsx', 'bench/baseline-server.ts', fixturesPath], env: {} },
  { name: 'bare Hono', args: ['--import', 'tsx', 'bench/baseline-server.ts', fixturesPath, '--hono'], env: {} },
  inkwell('warn'),
  inkwell('info'),
  inkwell('info', 'owner'),
])
  if (!only || only.some((part) => variant.name.includes(part))) counts.push(await count(variant, path));

const baseline = (counts[0] as Count).mainThread;
console.log('\n| Server | Instructions per request (main thread) | ÷ baseline |\n|---|---:|---:|');
for (const c of counts) console.log(`| ${c.name} | ${(c.mainThread / 1000).toFixed(1)}k | ${(c.mainThread / baseline).toFixed(2)}× |`);
writeFileSync(
  only ? `${rawDir}instructions-only.json` : `${repositoryRoot}bench/results/instructions.json`,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, path, requests: REQUESTS, warmup: WARMUP, counts }, null, 2)}\n`,
);

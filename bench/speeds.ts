// `tsx bench/speeds.ts`: does every inkwell process run at the same speed? Starts N fresh server
// processes in turn (the build, as `pnpm start` runs it), loads each with the same requests, and
// reports each one's CPU time per request: a process that settled in a slower state for its whole
// life shows as an outlier, where one process alone (as `pnpm bench` starts) can land either way.
// Each process is measured in several rounds and judged by their median, so one round slowed by
// the machine (another tenant, a noisy neighbour) does not pass for the process's own speed.
//
// Options: --processes N (5), --rounds R (3), --endpoint post|list|me|create (post), --seconds S
// per round (3), --warmup S (3), --connections C (50), --posts-access open|owner (open),
// --checkout DIR (another built checkout), --log-level L (info: one access line per request),
// --server inkwell|baseline|hono (inkwell: the
// baseline, or the bare Hono diagnostic, answering what one inkwell process answered, to see
// whether a server with none of inkwell's code settles in two speeds as well).
// Writes bench/results/speeds.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BaselineFixture } from './baseline-server.js';
import { captureFixture } from './lib/fixtures.js';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sendExpecting } from './lib/http-client.js';
import { freePort, repositoryRoot, startArgs, startServer, type ServerProcess } from './lib/processes.js';
import { median } from './lib/stats.js';
import { runWrk, warmUp } from './lib/wrk.js';

const { values: options } = parseArgs({
  options: {
    processes: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    endpoint: { type: 'string', default: 'post' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'posts-access': { type: 'string', default: 'open' },
    checkout: { type: 'string' },
    server: { type: 'string', default: 'inkwell' },
    'log-level': { type: 'string', default: 'info' },
  },
});
const PROCESSES = Number(options.processes);
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
const WARMUP = Number(options.warmup);
const CONNECTIONS = Number(options.connections);
const JWT_SECRET = 'bench-secret-0123456789abcdef-0123456789abcdef';
const CORES = availableParallelism();
const SERVER_CPUS = CORES >= 2 ? String(CORES - 1) : undefined;
const WRK_CPUS = CORES >= 2 ? '0' : undefined;
const checkout = options.checkout ? resolve(options.checkout) : repositoryRoot;
const log = (message: string) => process.stdout.write(`${message}\n`);

const postBody = JSON.stringify({ title: 'A post about nothing much', body: 'Ports, adapters and a little JSON.', authorId: 'bench', published: true });

/** The request the processes are loaded with, once the state it needs exists on `url`. */
async function prepare(url: string): Promise<{ path: string; script: 'get' | 'post-json'; args: string[]; work: BaselineFixture['work'] }> {
  const signup = { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: 'bench@example.com', name: 'Bench', password: 'bench password 0123' }) };
  const { token } = await sendExpecting<{ token: string }>(url, signup, 201);
  const created = await sendExpecting<{ post: { id: string } }>(url, { method: 'POST', path: '/posts', headers: { Authorization: `Bearer ${token}` }, body: postBody }, 201);
  switch (options.endpoint) {
    case 'post':
      return { path: `/posts/${created.post.id}`, script: 'get', args: [], work: 'stringify' };
    case 'list':
      return { path: '/posts?page=1&perPage=20', script: 'get', args: [], work: 'stringify' };
    case 'me':
      return { path: '/me', script: 'get', args: [token], work: 'verify-token' };
    case 'create':
      return { path: '/posts', script: 'post-json', args: [postBody, token], work: options['posts-access'] === 'owner' ? 'verify-token-and-parse-body' : 'parse-body' };
    default:
      throw new Error(`unknown endpoint ${options.endpoint}: use post, list, me or create`);
  }
}

type Load = Awaited<ReturnType<typeof prepare>>;

const inkwellEnv = { DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'production', LOG_LEVEL: options['log-level'] as string, POSTS_ACCESS: options['posts-access'] as string };

function startInkwell(name: string, cpus?: string): Promise<ServerProcess> {
  return freePort().then((port) => startServer({ name, args: startArgs(checkout), env: inkwellEnv, readyPath: '/health', cpus }, port));
}

/**
 * For `--server baseline|hono`: one inkwell process answers the endpoint once, and the servers
 * measured replay that answer (as `pnpm bench` does), each starting fresh.
 */
async function otherServer(variant: 'baseline' | 'hono'): Promise<{ load: Load; start: (name: string) => Promise<ServerProcess> }> {
  const inkwell = await startInkwell('inkwell (answers captured)');
  let load: Load;
  let fixture: BaselineFixture;
  try {
    load = await prepare(inkwell.url);
    const method = load.script === 'get' ? 'GET' : 'POST';
    const headers: Record<string, string> = load.args[0] === undefined ? {} : { Authorization: `Bearer ${load.args.at(-1) as string}` };
    const call = { method, path: load.path, headers, ...(method === 'POST' ? { body: postBody } : {}) };
    fixture = await captureFixture(inkwell.url, { name: options.endpoint as string, call, work: load.work, wrk: { script: load.script, args: load.args } });
  } finally {
    await inkwell.stop();
  }
  mkdirSync(`${repositoryRoot}bench/results/raw`, { recursive: true });
  const fixturesPath = `${repositoryRoot}bench/results/raw/speeds-fixtures.json`;
  writeFileSync(fixturesPath, JSON.stringify({ jwtSecret: JWT_SECRET, fixtures: [fixture] }, null, 2));
  const args = ['--import', 'tsx', 'bench/baseline-server.ts', fixturesPath, ...(variant === 'hono' ? ['--hono'] : [])];
  return { load, start: async (name) => startServer({ name, args, env: {}, readyPath: '/health', cpus: SERVER_CPUS }, await freePort()) };
}

const variant = options.server;
if (variant !== 'inkwell' && variant !== 'baseline' && variant !== 'hono') throw new Error(`unknown server ${variant}: use inkwell, baseline or hono`);
const other = variant === 'inkwell' ? undefined : await otherServer(variant);

const figures: { process: number; rps: number; cpuUs: number; roundsCpuUs: number[] }[] = [];
for (let i = 1; i <= PROCESSES; i++) {
  const server = other ? await other.start(`${variant} ${i}`) : await startInkwell(`inkwell ${i}`, SERVER_CPUS);
  try {
    const { path, script, args: wrkArgs } = other ? other.load : await prepare(server.url);
    const run = { url: `${server.url}${path}`, script, args: wrkArgs, connections: CONNECTIONS, cpus: WRK_CPUS };
    await warmUp(run, WARMUP);
    const rounds: { rps: number; cpuUs: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = server.cpuMicros();
      const result = await runWrk({ ...run, seconds: SECONDS });
      rounds.push({ rps: result.rps, cpuUs: (server.cpuMicros() - before) / result.requests });
    }
    const cpuUs = median(rounds.map((round) => round.cpuUs));
    figures.push({ process: i, rps: median(rounds.map((round) => round.rps)), cpuUs, roundsCpuUs: rounds.map((round) => round.cpuUs) });
    log(`${variant} process ${i}: ${Math.round(figures.at(-1)?.rps ?? 0)} req/s, ${cpuUs.toFixed(1)} µs CPU per request (rounds ${rounds.map((round) => round.cpuUs.toFixed(1)).join(', ')})`);
  } finally {
    await server.stop();
  }
}
const cpu = figures.map((figure) => figure.cpuUs);
const spread = Math.max(...cpu) / Math.min(...cpu) - 1;
log(`median ${median(cpu).toFixed(1)} µs CPU per request; slowest / fastest - 1 = ${(spread * 100).toFixed(1)}%`);
mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
writeFileSync(
  `${repositoryRoot}bench/results/speeds.json`,
  `${JSON.stringify({ date: new Date().toISOString(), server: variant, endpoint: options.endpoint, postsAccess: options['posts-access'], checkout: options.checkout ?? null, figures, spread }, null, 2)}\n`,
);

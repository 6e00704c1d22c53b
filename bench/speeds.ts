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
// --server inkwell|baseline|hono|honoDocumented|fastify|express (inkwell: or one of the servers `pnpm bench`
// compares it with, started on what one inkwell process held, to see whether a server with none
// of inkwell's code settles in two speeds as well).
// Writes bench/results/speeds.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { captureDataset, writeDataset, type Endpoint, type SignedUp } from './lib/same-work.js';
import { sendExpecting } from './lib/http-client.js';
import { COMPARED, comparedArgs, freePort, inkwellEnv, repositoryRoot, startArgs, startServer, type Compared, type ServerProcess } from './lib/processes.js';
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
const CORES = availableParallelism();
const SERVER_CPUS = CORES >= 2 ? String(CORES - 1) : undefined;
const WRK_CPUS = CORES >= 2 ? '0' : undefined;
const checkout = options.checkout ? resolve(options.checkout) : repositoryRoot;
const log = (message: string) => process.stdout.write(`${message}\n`);

const postBody = JSON.stringify({ title: 'A post about nothing much', body: 'Ports, adapters and a little JSON.', authorId: 'bench', published: true });

/** The endpoint the processes are loaded with, once the state it needs exists on `url`, and the account made for it. */
async function prepare(url: string): Promise<{ endpoint: Endpoint; signedUp: SignedUp }> {
  const signup = { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: 'bench@example.com', name: 'Bench', password: 'bench password 0123' }) };
  const signedUp = await sendExpecting<SignedUp>(url, signup, 201);
  return { endpoint: await endpointOf(url, signedUp.token), signedUp };
}

async function endpointOf(url: string, token: string): Promise<Endpoint> {
  const authorization = { Authorization: `Bearer ${token}` };
  const created = await sendExpecting<{ post: { id: string } }>(url, { method: 'POST', path: '/posts', headers: authorization, body: postBody }, 201);
  const name = options.endpoint as string;
  switch (name) {
    case 'post':
      return { name, call: { method: 'GET', path: `/posts/${created.post.id}` }, wrk: { script: 'get', args: [] } };
    case 'list':
      return { name, call: { method: 'GET', path: '/posts?page=1&perPage=20' }, wrk: { script: 'get', args: [] } };
    case 'me':
      return { name, call: { method: 'GET', path: '/me', headers: authorization }, wrk: { script: 'get', args: [token] } };
    case 'create':
      return { name, call: { method: 'POST', path: '/posts', headers: authorization, body: postBody }, wrk: { script: 'post-json', args: [postBody, token] } };
    default:
      throw new Error(`unknown endpoint ${name}: use post, list, me or create`);
  }
}

function startInkwell(name: string, cpus?: string): Promise<ServerProcess> {
  const env = inkwellEnv(options['log-level'], options['posts-access']);
  return freePort().then((port) => startServer({ name, args: startArgs(checkout), env, readyPath: '/health', cpus }, port));
}

/**
 * For a server inkwell is compared with: one inkwell process is made ready for the endpoint, and
 * the servers measured start, each fresh, from what it held (as `pnpm bench` starts them).
 */
async function otherServer(server: Compared): Promise<{ endpoint: Endpoint; start: (name: string) => Promise<ServerProcess> }> {
  const inkwell = await startInkwell('inkwell (data captured)');
  const datasetPath = `${repositoryRoot}bench/results/raw/speeds-dataset.json`;
  let endpoint: Endpoint;
  try {
    const prepared = await prepare(inkwell.url);
    endpoint = prepared.endpoint;
    mkdirSync(`${repositoryRoot}bench/results/raw`, { recursive: true });
    writeDataset(datasetPath, await captureDataset(inkwell.url, [prepared.signedUp]));
  } finally {
    await inkwell.stop();
  }
  const args = comparedArgs(server, datasetPath);
  return { endpoint, start: async (name) => startServer({ name, args, env: {}, readyPath: '/health', cpus: SERVER_CPUS }, await freePort()) };
}

const variant = options.server as string;
const isCompared = (name: string): name is Compared => Object.hasOwn(COMPARED, name);
if (variant !== 'inkwell' && !isCompared(variant)) throw new Error(`unknown server ${variant}: use inkwell, ${Object.keys(COMPARED).join(', ')}`);
const other = isCompared(variant) ? await otherServer(variant) : undefined;

const figures: { process: number; rps: number; cpuUs: number; roundsCpuUs: number[] }[] = [];
for (let i = 1; i <= PROCESSES; i++) {
  const server = other ? await other.start(`${variant} ${i}`) : await startInkwell(`inkwell ${i}`, SERVER_CPUS);
  try {
    const { call, wrk } = other ? other.endpoint : (await prepare(server.url)).endpoint;
    const run = { url: `${server.url}${call.path}`, script: wrk.script, args: wrk.args, connections: CONNECTIONS, cpus: WRK_CPUS };
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

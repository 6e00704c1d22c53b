// `tsx bench/compare.ts --before <git revision or built checkout>`: this checkout's build against
// another build of inkwell, endpoint by endpoint, in the same run: rounds alternate between the two
// servers (before, after, before, after…), each pinned to the same core, so both see the same
// machine. It answers "is this change slower?" where `pnpm bench` answers "how far from bare Node?".
//
// Options: --before REV|DIR (required: a revision is checked out into a temporary worktree,
// installed and built), --endpoints me,post,list,create,login (the first four; login, which is
// bcrypt's speed on the server's core, only when asked), --rounds N (5), --seconds S (5),
// --warmup S (3, as one-second runs), --connections C (50), --posts-access open|owner (open). Writes
// bench/results/compare.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sendExpecting, sendMany, type Call } from './lib/http-client.js';
import { freePort, inkwellEnv, repositoryRoot, startArgs, startServer, type ServerProcess } from './lib/processes.js';
import { median } from './lib/stats.js';
import { runWrk, warmUp } from './lib/wrk.js';

const { values: options } = parseArgs({
  options: {
    before: { type: 'string' },
    endpoints: { type: 'string', default: 'me,post,list,create' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'posts-access': { type: 'string', default: 'open' },
  },
});
if (!options.before) {
  console.error('usage: tsx bench/compare.ts --before <git revision or built checkout> [--endpoints me,post,list,create,login]');
  process.exit(2);
}
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
const WARMUP = Number(options.warmup);
const CONNECTIONS = Number(options.connections);
const POSTS_ACCESS = options['posts-access'];
const CORES = availableParallelism();
const SERVER_CPUS = CORES >= 2 ? String(CORES - 1) : undefined;
const WRK_CPUS = CORES >= 2 ? '0' : undefined;
const log = (message: string) => process.stdout.write(`${message}\n`);

/** A checkout with `packages/app/dist/main.js`: the directory given, or the revision built in a temporary worktree. */
function builtCheckout(revisionOrDir: string): string {
  const dir = resolve(revisionOrDir);
  if (existsSync(join(dir, 'packages/app/dist/main.js'))) return dir;
  const worktree = mkdtempSync(join(tmpdir(), 'inkwell-before-'));
  log(`checking out ${revisionOrDir} into ${worktree}, then install and build …`);
  execFileSync('git', ['worktree', 'add', '--detach', worktree, revisionOrDir], { cwd: repositoryRoot, stdio: 'inherit' });
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: worktree, stdio: 'inherit' });
  execFileSync('pnpm', ['build'], { cwd: worktree, stdio: 'inherit' });
  return worktree;
}

/** inkwell from `checkout`'s build, with the flags its own `pnpm start` uses. */
async function startInkwell(name: string, checkout: string): Promise<ServerProcess> {
  const args = startArgs(checkout);
  const env = inkwellEnv('info', POSTS_ACCESS);
  return startServer({ name, args, env, readyPath: '/health', cpus: SERVER_CPUS }, await freePort());
}

/** What each endpoint is: its request, the wrk script that sends it, and how many connections load it (`--connections` unless said). */
interface Endpoint {
  readonly name: string;
  readonly call: Call;
  readonly script: 'get' | 'post-json' | 'rotate-json';
  readonly args: string[];
  readonly connections?: number;
}

/**
 * Accounts that log in in turn, as the login storm of `pnpm bench` does, so each e-mail has at most
 * one login in flight, far from its limit; over a few connections, since a login is bcrypt's work
 * (hundreds of milliseconds on the server's one core) and more would only queue for it.
 */
const LOGIN_ACCOUNTS = 16;
const LOGIN_CONNECTIONS = 4;
const loginBody = (i: number) => JSON.stringify({ email: `login-${i}@example.com`, password: 'bench password 0123' });

const postBody = JSON.stringify({ title: 'A post about nothing much', body: 'Ports, adapters and a little JSON.', authorId: 'bench', published: false });

/** Signs up one user and stores 200 published posts on `server`; answers the endpoints as they apply to it. */
async function seed(server: ServerProcess): Promise<Endpoint[]> {
  const signup = { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: 'bench@example.com', name: 'Bench', password: 'bench password 0123' }) };
  const { token } = await sendExpecting<{ token: string }>(server.url, signup, 201);
  const authorization = { Authorization: `Bearer ${token}` };
  await sendMany(server.url, 200, 8, () => ({ method: 'POST', path: '/posts', headers: authorization, body: postBody.replace('false', 'true') }), 201);
  const { posts } = await sendExpecting<{ posts: { id: string }[] }>(server.url, { method: 'GET', path: '/posts?perPage=100' }, 200);
  const id = posts[50]?.id as string;
  const logins = Array.from({ length: LOGIN_ACCOUNTS }, (_, i) => loginBody(i));
  if ((options.endpoints as string).split(',').includes('login')) {
    const signupOf = (i: number) => ({ ...JSON.parse(loginBody(i)), name: `Login ${i}` }) as Record<string, string>;
    await sendMany(server.url, LOGIN_ACCOUNTS, 4, (i) => ({ method: 'POST', path: '/auth/signup', body: JSON.stringify(signupOf(i)) }), 201);
  }
  const all: Record<string, Endpoint> = {
    me: { name: 'GET /me', call: { method: 'GET', path: '/me', headers: authorization }, script: 'get', args: [token] },
    post: { name: 'GET /posts/:id', call: { method: 'GET', path: `/posts/${id}` }, script: 'get', args: [] },
    list: { name: 'GET /posts?page=1&perPage=20', call: { method: 'GET', path: '/posts?page=1&perPage=20' }, script: 'get', args: [] },
    create: { name: 'POST /posts', call: { method: 'POST', path: '/posts', headers: authorization, body: postBody }, script: 'post-json', args: [postBody, token] },
    login: {
      name: `POST /auth/login (${LOGIN_ACCOUNTS} accounts in turn over ${LOGIN_CONNECTIONS} connections, bcrypt cost 12)`,
      call: { method: 'POST', path: '/auth/login', body: logins[0] as string },
      script: 'rotate-json',
      args: logins,
      connections: LOGIN_CONNECTIONS,
    },
  };
  return (options.endpoints as string).split(',').map((key) => {
    const endpoint = all[key];
    if (!endpoint) throw new Error(`unknown endpoint ${key}: use me, post, list, create or login`);
    return endpoint;
  });
}

/** What one load measured. */
interface Load {
  readonly rps: number;
  /** CPU time the server spent per request, every thread counted. */
  readonly cpuUs: number;
  readonly p99Ms: number;
}

/** What wrk sends to load `endpoint` on `server`. */
const wrkRun = (server: ServerProcess, endpoint: Endpoint) =>
  ({
    url: `${server.url}${endpoint.call.path}`,
    script: endpoint.script,
    args: endpoint.args,
    connections: endpoint.connections ?? CONNECTIONS,
    cpus: WRK_CPUS,
  }) as const;

/** One wrk load of `endpoint` on `server`: requests per second and CPU microseconds per request. */
async function load(server: ServerProcess, endpoint: Endpoint, seconds: number): Promise<Load> {
  const before = server.cpuMicros();
  const result = await runWrk({ ...wrkRun(server, endpoint), seconds });
  if (result.non2xx > 0 || result.socketErrors > 0) log(`  warning: ${server.name}: ${result.non2xx} non-2xx, ${result.socketErrors} socket errors`);
  return { rps: result.rps, cpuUs: (server.cpuMicros() - before) / result.requests, p99Ms: result.p99Ms };
}

async function main(): Promise<void> {
  const beforeDir = builtCheckout(options.before as string);
  const before = await startInkwell(`before (${options.before})`, beforeDir);
  const after = await startInkwell('after (this checkout)', repositoryRoot);
  try {
    const endpoints = { before: await seed(before), after: await seed(after) };
    const results = [];
    for (const [i, endpoint] of endpoints.after.entries()) {
      const beforeEndpoint = endpoints.before[i] as Endpoint;
      log(`${endpoint.name}`);
      await warmUp(wrkRun(before, beforeEndpoint), WARMUP);
      await warmUp(wrkRun(after, endpoint), WARMUP);
      const rounds: { before: Load; after: Load }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const b = await load(before, beforeEndpoint, SECONDS);
        const a = await load(after, endpoint, SECONDS);
        rounds.push({ before: b, after: a });
        log(
          `  round ${round}: before ${Math.round(b.rps)} req/s, ${b.cpuUs.toFixed(1)} µs CPU/req; ` +
            `after ${Math.round(a.rps)} req/s, ${a.cpuUs.toFixed(1)} µs CPU/req; after/before ${(a.rps / b.rps).toFixed(3)}`,
        );
      }
      const pick = (f: (r: { before: Load; after: Load }) => number) => median(rounds.map(f));
      const summary = {
        name: endpoint.name,
        rounds,
        median: {
          beforeRps: pick((r) => r.before.rps),
          afterRps: pick((r) => r.after.rps),
          ratio: pick((r) => r.after.rps / r.before.rps),
          beforeCpuUs: pick((r) => r.before.cpuUs),
          afterCpuUs: pick((r) => r.after.cpuUs),
        },
      };
      log(
        `  median: before ${Math.round(summary.median.beforeRps)} req/s (${summary.median.beforeCpuUs.toFixed(1)} µs), ` +
          `after ${Math.round(summary.median.afterRps)} req/s (${summary.median.afterCpuUs.toFixed(1)} µs), after/before ${summary.median.ratio.toFixed(3)}`,
      );
      results.push(summary);
    }
    const file = `${repositoryRoot}bench/results/compare.json`;
    mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
    writeFileSync(file, `${JSON.stringify({ before: options.before, postsAccess: POSTS_ACCESS, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, results }, null, 2)}\n`);
    log(`wrote ${file}`);
  } finally {
    await Promise.all([before.stop(), after.stop()]);
  }
}

await main();

// `pnpm bench`: inkwell (built dist, memory store) against the same endpoints doing the same work
// in a bare node:http server (the limit), bare Hono (the target's floor), Fastify and Express, all
// loaded in turn in each round of one run; a login storm against bare bcryptjs in worker threads,
// memory, start-up time and the list at 100 000 posts. Writes bench/results/latest.{json,md} and
// ratios.svg. See docs/performance.md.
//
// Options: --rounds N (3), --seconds S per round (5), --warmup S (3, as one-second runs), --connections C (50),
// --no-pin (no taskset), --only reads,logins,posts,scale,startup (a subset, for development),
// --posts-access open|owner (the POSTS_ACCESS inkwell runs with; owner results go to
// latest-owner.*), --update-docs (replace that mode's table in docs/performance.md).
import bcrypt from 'bcryptjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { send, sendExpecting, sendMany } from './lib/http-client.js';
import { bareCompareRate, probe } from './lib/login-storm.js';
import { COMPARED, comparedArgs, freePort, inkwellArgs, inkwellEnv, repositoryRoot, startServer, type Compared, type Memory, type ServerProcess } from './lib/processes.js';
import { markdownReport, ratiosSvg } from './lib/report.js';
import {
  SERVERS,
  type BenchResults,
  type DiagnosticResult,
  type EndpointResult,
  type LoginStormResult,
  type Ratio,
  type ScaleResult,
  type ServerKey,
  type ServerRound,
} from './lib/results.js';
import { captureDataset, checkSameAnswers, expectSameAnswer, writeDataset, type Endpoint, type SignedUp } from './lib/same-work.js';
import { repositoryPageCost } from './lib/scale.js';
import { median } from './lib/stats.js';
import { runWrk, warmUp, wrkVersion, type WrkResult } from './lib/wrk.js';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'no-pin': { type: 'boolean', default: false },
    only: { type: 'string' },
    'posts-access': { type: 'string', default: 'open' },
    'update-docs': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(options.rounds);
const SECONDS = Number(options.seconds);
const WARMUP = Number(options.warmup);
const CONNECTIONS = Number(options.connections);
const only = options.only ? new Set(options.only.split(',')) : null;
const POSTS_ACCESS = postsAccessOption(options['posts-access']);
const OWNER = POSTS_ACCESS === 'owner';
const runs = (phase: 'reads' | 'logins' | 'posts' | 'scale' | 'startup' | 'diagnostics') => only === null || only.has(phase);

const SEEDED_POSTS = 10_000;
const SCALE_POSTS = 100_000;
const LOGIN_USERS = 16;
const STORM_CONNECTIONS = 16;
const STORM_SECONDS = 10;
const PROBE_PER_SECOND = 100;
const PASSWORD = 'bench password 0123';
const LOG_LEVEL = 'info';
const resultsDir = `${repositoryRoot}bench/results/`;
const rawDir = `${resultsDir}raw/`;

function postsAccessOption(value: string): 'open' | 'owner' {
  if (value === 'open' || value === 'owner') return value;
  console.error('--posts-access must be open or owner');
  process.exit(2);
}

const log = (message: string) => process.stdout.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------
// The load tool

function ensureWrk(): string {
  const found = wrkVersion();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
    log('wrk is missing: installing it with `apt-get install -y wrk` …');
    spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' });
    const installed = wrkVersion();
    if (installed) return installed;
  }
  console.error(
    'pnpm bench needs wrk (https://github.com/wg/wrk) on the PATH. Install it with\n' +
      '  sudo apt-get install -y wrk     # Debian, Ubuntu\n' +
      '  brew install wrk                # macOS\n' +
      'and run `pnpm bench` again.',
  );
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// CPU placement

const CORES = availableParallelism();
const canPin = !options['no-pin'] && CORES >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
/** The server under test gets the last CPU and wrk the first, so they never fight over one. */
const SERVER_CPUS = canPin ? String(CORES - 1) : undefined;
const WRK_CPUS = canPin ? '0' : undefined;
const ALL_CPUS = `0-${CORES - 1}`;

/** Moves every thread of `pid` onto `cpus`. */
function pin(pid: number, cpus: string | undefined): void {
  if (cpus === undefined) return;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

// ---------------------------------------------------------------------------------------------
// Servers

const inkwellSpec = (name: string, logLevel: string) => ({
  name,
  args: [...inkwellArgs],
  env: inkwellEnv(logLevel, POSTS_ACCESS),
  readyPath: '/health',
});

async function startInkwell(name = 'inkwell', logLevel = LOG_LEVEL): Promise<ServerProcess> {
  return startServer(inkwellSpec(name, logLevel), await freePort());
}

/** One of the servers inkwell is compared with, on the data in `datasetPath`. */
async function startCompared(server: Compared, datasetPath: string): Promise<ServerProcess> {
  return startServer({ name: COMPARED[server].name, args: comparedArgs(server, datasetPath), env: {}, readyPath: '/health' }, await freePort());
}

/** A realistic post: about 500 bytes as JSON. */
function postInput(i: number, authorId: string, published: boolean) {
  return {
    title: `Notes on building a small JSON API, part ${i}`,
    body:
      'Ports and adapters keep the rules of the domain apart from the HTTP framework and the database driver. ' +
      'Each use case validates its input, talks to a repository through a port, and returns plain data. ' +
      `The adapters translate: routes to use cases, errors to statuses, documents to entities. Post number ${i}.`,
    authorId,
    published,
  };
}

// ---------------------------------------------------------------------------------------------
// Phases

async function measureStartup(): Promise<{ runsMs: number[]; medianMs: number }> {
  const runsMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const server = await startInkwell(`inkwell start-up ${i + 1}`);
    runsMs.push(server.startMs);
    await server.stop();
  }
  log(`start to first response: ${runsMs.map((run) => `${Math.round(run)} ms`).join(', ')}`);
  return { runsMs, medianMs: median(runsMs) };
}

interface Seeded {
  readonly token: string;
  readonly userId: string;
  readonly postIds: string[];
  readonly signedUp: readonly SignedUp[];
}

async function seed(server: ServerProcess): Promise<Seeded> {
  const signups = await Promise.all(
    Array.from({ length: LOGIN_USERS }, (_, i) =>
      sendExpecting<SignedUp>(
        server.url,
        { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: `bench-user-${i}@example.com`, name: `Bench ${i}`, password: PASSWORD }) },
        201,
      ),
    ),
  );
  const { token, user } = signups[0] as SignedUp;
  const userId = user.id;
  const postIds: string[] = [];
  const started = performance.now();
  await sendMany(server.url, SEEDED_POSTS, 16, (i) => createPostCall(postInput(i, userId, true), token), 201);
  // The ids, from the list itself (newest first).
  for (let page = 1; page <= SEEDED_POSTS / 100; page++) {
    const list = await sendExpecting<{ posts: Array<{ id: string }> }>(server.url, { method: 'GET', path: `/posts?page=${page}&perPage=100` }, 200);
    for (const post of list.posts) postIds.push(post.id);
  }
  log(`seeded ${LOGIN_USERS} users and ${SEEDED_POSTS} published posts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { token, userId, postIds, signedUp: signups };
}

/** `POST /posts` as its author sends it: with a bearer token, which owner mode requires and open mode ignores. */
function createPostCall(input: ReturnType<typeof postInput>, token: string) {
  return { method: 'POST', path: '/posts', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify(input) };
}

/** An endpoint of the table, and whether the servers inkwell is compared with serve it. */
type TableEndpoint = Endpoint & { readonly compared: boolean };

/**
 * The endpoints of the table. In owner mode the reads stay anonymous (a published post and the
 * list need no token) and the servers compared serve them as in open mode; `POST /posts` carries
 * its author's token, and the author's own list, `GET /me/posts`, joins them: those two are
 * inkwell's alone, since the servers compared implement the open mode.
 */
function endpointsFor(seeded: Seeded): TableEndpoint[] {
  const postBody = JSON.stringify(postInput(0, seeded.userId, false));
  const authorization = { Authorization: `Bearer ${seeded.token}` };
  const get = (name: string, path: string): TableEndpoint => ({ name, compared: true, call: { method: 'GET', path }, wrk: { script: 'get', args: [] } });
  return [
    get('GET /posts/:id', `/posts/${seeded.postIds[SEEDED_POSTS / 2] as string}`),
    get('GET /posts?page=1&perPage=20', '/posts?page=1&perPage=20'),
    get('GET /posts?page=400&perPage=20', '/posts?page=400&perPage=20'),
    { name: 'GET /me', compared: true, call: { method: 'GET', path: '/me', headers: authorization }, wrk: { script: 'get', args: [seeded.token] } },
    ...(OWNER
      ? [
          {
            name: 'GET /me/posts?page=1&perPage=20',
            compared: false,
            call: { method: 'GET', path: '/me/posts?page=1&perPage=20', headers: authorization },
            wrk: { script: 'get' as const, args: [seeded.token] },
          },
        ]
      : []),
    {
      name: 'POST /posts',
      compared: !OWNER,
      call: { method: 'POST', path: '/posts', body: postBody, ...(OWNER && { headers: authorization }) },
      wrk: { script: 'post-json', args: OWNER ? [postBody, seeded.token] : [postBody] },
    },
  ];
}

function checkClean(result: WrkResult, what: string): void {
  if (result.non2xx > 0 || result.socketErrors > 0)
    log(`  warning: ${what}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`);
}

/** Every server of the table that runs, by key. */
type Servers = Partial<Record<ServerKey, ServerProcess>>;

/** Before any load: every compared server answers as inkwell does (`checkSameAnswers`); resolves with each endpoint's answer size. */
async function checkBeforeLoad(endpoints: readonly TableEndpoint[], servers: Servers): Promise<Map<string, number>> {
  const others = SERVERS.filter((key) => key !== 'inkwell').flatMap((key) => servers[key] ?? []);
  const sizes = await checkSameAnswers(
    (servers.inkwell as ServerProcess).url,
    others,
    endpoints.filter((endpoint) => endpoint.compared),
  );
  log(`same answers: every compared server answers ${[...sizes.keys()].join(', ')} with inkwell's bytes, and decides the rule checks as inkwell does`);
  return sizes;
}

/** What wrk sends to `server` for `endpoint`. */
const wrkRun = (endpoint: Endpoint, server: ServerProcess) => ({
  url: `${server.url}${endpoint.call.path}`,
  script: endpoint.wrk.script,
  args: endpoint.wrk.args,
  connections: CONNECTIONS,
  cpus: WRK_CPUS,
});

/** One wrk run on `server`, with the server's CPU time per request. */
async function load(endpoint: Endpoint, server: ServerProcess, seconds: number): Promise<ServerRound> {
  const before = server.cpuMicros();
  const result = await runWrk({ ...wrkRun(endpoint, server), seconds });
  checkClean(result, `${server.name} ${endpoint.name}`);
  return { ...result, cpuUs: (server.cpuMicros() - before) / result.requests };
}

/**
 * Loads `endpoint` on each of `keys` in turn, round after round: each server is warmed up first
 * (one-second runs), then every round loads every server once for the same time, the order
 * rotating from round to round so that no server always follows the same one.
 */
async function loadEndpoint(endpoint: TableEndpoint, servers: Servers, answerBytes: number): Promise<EndpointResult> {
  const keys = SERVERS.filter((key) => servers[key] && (endpoint.compared || key === 'inkwell'));
  const server = (key: ServerKey) => servers[key] as ServerProcess;
  log(`${endpoint.name} (${answerBytes} bytes): ${keys.map((key) => server(key).name).join(', ')}`);
  const requests: Partial<Record<ServerKey, number>> = {};
  for (const key of keys) requests[key] = await warmUp(wrkRun(endpoint, server(key)), WARMUP);
  const rounds: Array<Partial<Record<ServerKey, ServerRound>>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figures: Partial<Record<ServerKey, ServerRound>> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + round) % keys.length] as ServerKey;
      const result = await load(endpoint, server(key), SECONDS);
      figures[key] = result;
      requests[key] = (requests[key] ?? 0) + result.requests;
    }
    rounds.push(figures);
    log(`  round ${round + 1}: ${keys.map((key) => `${server(key).name} ${Math.round(figures[key]?.rps ?? 0)} req/s ${(figures[key]?.cpuUs ?? 0).toFixed(1)} µs`).join(', ')}`);
  }
  const of = (key: ServerKey, pick: (r: ServerRound) => number) => median(rounds.map((r) => pick(r[key] as ServerRound)));
  const medians: EndpointResult['median'] = {};
  for (const key of keys) medians[key] = { rps: of(key, (r) => r.rps), cpuUs: of(key, (r) => r.cpuUs), p50Ms: of(key, (r) => r.p50Ms), p99Ms: of(key, (r) => r.p99Ms) };
  const ratios: EndpointResult['ratios'] = {};
  for (const key of keys) {
    if (key === 'inkwell') continue;
    const ratio: Ratio = {
      rps: median(rounds.map((r) => (r.inkwell as ServerRound).rps / (r[key] as ServerRound).rps)),
      cpu: median(rounds.map((r) => (r[key] as ServerRound).cpuUs / (r.inkwell as ServerRound).cpuUs)),
    };
    ratios[key] = ratio;
  }
  log(`  inkwell ÷ ${keys.filter((key) => key !== 'inkwell').map((key) => `${server(key).name} ${ratios[key as Exclude<ServerKey, 'inkwell'>]?.cpu.toFixed(2)}× (CPU)`).join(', ')}`);
  return { name: endpoint.name, answerBytes, servers: keys, rounds, requests, median: medians, ratios };
}

async function loginStorm(inkwell: ServerProcess, probePath: string): Promise<LoginStormResult> {
  // The pool needs every core: no pinning for this phase, for the server or the bare pool.
  pin(inkwell.pid, canPin ? ALL_CPUS : undefined);
  const hashThreads = CORES; // HASH_WORKERS' default
  const hash = bcrypt.hashSync(PASSWORD, 12);

  const bareComparesPerSecond = await bareCompareRate(hashThreads, STORM_SECONDS, PASSWORD, hash);
  log(`bare bcryptjs in ${hashThreads} worker threads: ${bareComparesPerSecond.toFixed(2)} compares/s`);

  const probeUrl = `${inkwell.url}${probePath}`;
  const probeIdle = await probe(probeUrl, PROBE_PER_SECOND, 5);
  log(`probe idle: p50 ${probeIdle.p50Ms.toFixed(2)} ms, p99 ${probeIdle.p99Ms.toFixed(2)} ms`);

  const bodies = Array.from({ length: LOGIN_USERS }, (_, i) => JSON.stringify({ email: `bench-user-${i}@example.com`, password: PASSWORD }));
  const [storm, probeDuringStorm] = await Promise.all([
    runWrk({ url: `${inkwell.url}/auth/login`, script: 'rotate-json', args: bodies, connections: STORM_CONNECTIONS, seconds: STORM_SECONDS }),
    probe(probeUrl, PROBE_PER_SECOND, STORM_SECONDS),
  ]);
  const loginsPerSecond = (storm.requests - storm.non2xx) / storm.seconds;
  log(
    `login storm: ${loginsPerSecond.toFixed(2)} logins/s (${storm.non2xx} non-2xx), probe p50 ${probeDuringStorm.p50Ms.toFixed(2)} ms, p99 ${probeDuringStorm.p99Ms.toFixed(2)} ms`,
  );
  pin(inkwell.pid, SERVER_CPUS);
  return {
    hashThreads,
    connections: STORM_CONNECTIONS,
    seconds: STORM_SECONDS,
    bareComparesPerSecond,
    loginsPerSecond,
    non2xx: storm.non2xx,
    ratio: loginsPerSecond / bareComparesPerSecond,
    probePerSecond: PROBE_PER_SECOND,
    probeIdle,
    probeDuringStorm,
  };
}

async function scaleTest(): Promise<ScaleResult> {
  const server = await startInkwell('inkwell 100k');
  try {
    const { token, user } = await sendExpecting<{ token: string; user: { id: string } }>(
      server.url,
      { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: 'scale-author@example.com', name: 'Scale', password: PASSWORD }) },
      201,
    );
    const started = performance.now();
    await sendMany(server.url, SCALE_POSTS, 32, (i) => createPostCall(postInput(i, user.id, true), token), 201);
    const seedSeconds = (performance.now() - started) / 1000;
    const total = (await sendExpecting<{ pagination: { total: number } }>(server.url, { method: 'GET', path: '/posts?perPage=1' }, 200)).pagination.total;
    log(`seeded ${total} published posts in ${seedSeconds.toFixed(1)} s`);
    pin(server.pid, SERVER_CPUS);

    const run = (page: number) => ({ url: `${server.url}/posts?page=${page}&perPage=20`, script: 'get' as const, connections: CONNECTIONS, cpus: WRK_CPUS });
    const load = (page: number, seconds: number) => runWrk({ ...run(page), seconds });
    await warmUp(run(1), WARMUP);
    await warmUp(run(5000), WARMUP);
    const first: WrkResult[] = [];
    const deep: WrkResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      first.push(await load(1, SECONDS));
      deep.push(await load(5000, SECONDS));
    }
    const summary = (results: WrkResult[]) => ({
      rps: median(results.map((r) => r.rps)),
      p50Ms: median(results.map((r) => r.p50Ms)),
      p99Ms: median(results.map((r) => r.p99Ms)),
    });
    const page1 = summary(first);
    const page5000 = summary(deep);
    log(`page 1: ${Math.round(page1.rps)} req/s, page 5000: ${Math.round(page5000.rps)} req/s`);

    const repository = await repositoryPageCost('published', SCALE_POSTS, 20, 5000);
    log(`repository: page 1 ${repository.first.toFixed(2)} µs, page 5000 ${repository.deep.toFixed(2)} µs per call`);
    const ownPosts = await repositoryPageCost('author', SCALE_POSTS, 20, 5000);
    log(`repository, one author's posts: page 1 ${ownPosts.first.toFixed(2)} µs, page 5000 ${ownPosts.deep.toFixed(2)} µs per call`);
    return {
      posts: total,
      seedSeconds,
      http: { page1, page5000, ratio: page5000.rps / page1.rps },
      repository: { page1MicrosPerCall: repository.first, page5000MicrosPerCall: repository.deep, ratio: repository.deep / repository.first },
      ownPostsRepository: { page1MicrosPerCall: ownPosts.first, page5000MicrosPerCall: ownPosts.deep, ratio: ownPosts.deep / ownPosts.first },
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The run

function commit(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repositoryRoot, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash}+changes` : hash;
  } catch {
    return 'unknown';
  }
}

const emptyMemory: Memory = { rssMB: Number.NaN, peakRssMB: Number.NaN };

/** The 1, 5 and 15 minute load averages. */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

type Served = Pick<BenchResults, 'endpoints' | 'memory' | 'diagnostics'> & { readonly loginStorm?: LoginStormResult };

async function main(): Promise<void> {
  const loadAtStart = loadAverage();
  const wrk = ensureWrk();
  mkdirSync(rawDir, { recursive: true });
  const begun = performance.now();
  log(`${wrk}; ${CORES} CPUs; ${canPin ? `server on CPU ${SERVER_CPUS}, wrk on CPU ${WRK_CPUS}` : 'no CPU pinning'}; load average ${loadAtStart}`);
  if (Number(loadAtStart.split(' ')[0]) > 0.5) log('warning: the machine is busy (load average above 0.5): req/s will be noisy; the CPU ratios less so');

  const startup = runs('startup') ? await measureStartup() : { runsMs: [], medianMs: Number.NaN };
  const served = await measureServed();
  const scale = runs('scale') ? await scaleTest() : undefined;
  const results: BenchResults = {
    environment: environment(wrk, loadAtStart),
    startup,
    ...served,
    loginStorm: served.loginStorm as LoginStormResult,
    scale: scale as ScaleResult,
  };
  writeResults(results, begun);
}

/**
 * Everything measured on one seeded inkwell and the servers it is compared with, which start from
 * what inkwell holds once seeded: the reads, the login storm (inkwell alone), the writes (last,
 * since they grow every store), memory after each, and the diagnostics.
 */
async function measureServed(): Promise<Served> {
  const servers: Servers = { inkwell: await startInkwell() };
  const inkwell = servers.inkwell as ServerProcess;
  try {
    const seeded = await seed(inkwell);
    const all = endpointsFor(seeded);
    const datasetPath = `${rawDir}dataset.json`;
    writeDataset(datasetPath, await captureDataset(inkwell.url, seeded.signedUp));
    for (const key of Object.keys(COMPARED) as Compared[]) servers[key] = await startCompared(key, datasetPath);
    for (const server of Object.values(servers)) pin(server.pid, SERVER_CPUS);
    const sizes = await checkBeforeLoad(all, servers);
    const answerBytes = async (endpoint: TableEndpoint) => sizes.get(endpoint.name) ?? Buffer.byteLength((await send(inkwell.url, endpoint.call)).text);
    const getPost = all[0] as TableEndpoint;

    const endpoints: EndpointResult[] = [];
    if (runs('reads')) for (const endpoint of all.filter((e) => e.call.method === 'GET')) endpoints.push(await loadEndpoint(endpoint, servers, await answerBytes(endpoint)));
    const afterReads = memoryAfter(inkwell, 'the read load');

    const storm = runs('logins') ? await loginStorm(inkwell, getPost.call.path) : undefined;
    const afterLogins = storm ? memoryAfter(inkwell, 'the login storm') : emptyMemory;

    let afterPosts = { ...emptyMemory, postsStored: 0 };
    const postsHeld: Partial<Record<ServerKey, number>> = {};
    if (runs('posts')) {
      const creates = all.find((e) => e.call.method === 'POST') as TableEndpoint;
      const posts = await loadEndpoint(creates, servers, await answerBytes(creates));
      endpoints.push(posts);
      // Each server holds the seeded posts, the post of the answer check (inkwell's too), and one per request.
      for (const key of posts.servers) postsHeld[key] = SEEDED_POSTS + (creates.compared ? 1 : 0) + (posts.requests[key] ?? 0);
      afterPosts = { ...memoryAfter(inkwell, 'the POST /posts rounds'), postsStored: postsHeld.inkwell ?? 0 };
      log(`posts held: ${posts.servers.map((key) => `${(servers[key] as ServerProcess).name} ${postsHeld[key]}`).join(', ')}`);
    }

    const diagnostics = runs('diagnostics') ? { withoutAccessLog: await withoutAccessLog() } : {};
    return { endpoints, loginStorm: storm, memory: { afterReads, afterLogins, afterPosts, postsHeld }, diagnostics };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

function memoryAfter(server: ServerProcess, what: string): Memory {
  const memory = server.memory();
  log(`inkwell RSS after ${what}: ${memory.rssMB.toFixed(1)} MB`);
  return memory;
}

/**
 * Not a target: GET /posts/:id on an inkwell without its access line against a fresh baseline on
 * that inkwell's data: what the per-request log line costs on the smallest answer.
 */
async function withoutAccessLog(): Promise<DiagnosticResult> {
  const servers: Servers = { inkwell: await startInkwell('inkwell (LOG_LEVEL=warn)', 'warn') };
  try {
    const seeded = await seed(servers.inkwell as ServerProcess);
    const getPost = endpointsFor(seeded)[0] as TableEndpoint;
    const datasetPath = `${rawDir}dataset-quiet.json`;
    writeDataset(datasetPath, await captureDataset((servers.inkwell as ServerProcess).url, seeded.signedUp));
    servers.baseline = await startCompared('baseline', datasetPath);
    for (const server of Object.values(servers)) pin(server.pid, SERVER_CPUS);
    const bytes = await expectSameAnswer((servers.inkwell as ServerProcess).url, servers.baseline.url, servers.baseline.name, getPost.call);
    const result = await loadEndpoint({ ...getPost, name: `${getPost.name}, LOG_LEVEL=warn` }, servers, bytes);
    const [inkwellMedian, baselineMedian] = [result.median.inkwell, result.median.baseline] as [{ rps: number; cpuUs: number }, { rps: number; cpuUs: number }];
    return {
      name: result.name,
      inkwellCpuUs: inkwellMedian.cpuUs,
      baselineCpuUs: baselineMedian.cpuUs,
      inkwellRps: inkwellMedian.rps,
      baselineRps: baselineMedian.rps,
      ratio: result.ratios.baseline as Ratio,
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

function environment(wrk: string, loadAtStart: string): BenchResults['environment'] {
  return {
    date: new Date().toISOString(),
    commit: commit(),
    node: process.versions.node,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: CORES,
    wrk,
    pinning: canPin ? `every server pinned to CPU ${SERVER_CPUS}, wrk to CPU ${WRK_CPUS} (taskset); the login storm unpinned` : 'no CPU pinning',
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    connections: CONNECTIONS,
    logLevel: LOG_LEVEL,
    postsAccess: POSTS_ACCESS,
    seededPosts: SEEDED_POSTS,
    loadAverage: { start: loadAtStart, end: loadAverage() },
  };
}

/**
 * A partial run (--only) goes to the raw folder; a full one replaces latest.* (latest-owner.* in
 * owner mode) and, asked to, that mode's table in docs/performance.md.
 */
function writeResults(results: BenchResults, begun: number): void {
  if (only !== null) {
    writeFileSync(`${rawDir}partial${OWNER ? '-owner' : ''}.json`, `${JSON.stringify(results, null, 2)}\n`);
    log(`partial run (--only): figures in bench/results/raw/; latest.* left alone`);
    return;
  }
  const name = OWNER ? 'latest-owner' : 'latest';
  const markdown = markdownReport(results);
  writeFileSync(`${resultsDir}${name}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${resultsDir}${name}.md`, markdown);
  writeFileSync(`${resultsDir}${OWNER ? 'ratios-owner' : 'ratios'}.svg`, ratiosSvg(results));
  if (options['update-docs']) updateDocs(markdown);
  log(`\n${markdown}`);
  log(`wrote bench/results/${name}.json, ${name}.md and the chart in ${((performance.now() - begun) / 60_000).toFixed(1)} min`);
}

/** Replaces the text between docs/performance.md's bench markers for this mode with the new table. */
function updateDocs(markdown: string): void {
  const path = `${repositoryRoot}docs/performance.md`;
  const text = readFileSync(path, 'utf8');
  const marker = OWNER ? 'bench-owner' : 'bench';
  const [begin, end] = [`<!-- ${marker}:begin -->`, `<!-- ${marker}:end -->`];
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    log(`docs/performance.md has no ${marker} markers: left alone`);
    return;
  }
  writeFileSync(path, `${text.slice(0, from + begin.length)}\n${markdown}${text.slice(to)}`);
  log('docs/performance.md table updated');
}

await main();

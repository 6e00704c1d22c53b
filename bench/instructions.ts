// Instructions per request on the server's main thread, counted by valgrind's callgrind: unlike
// req/s on a shared 2-core machine, a count does not move with whatever else runs, so it shows
// differences of a few per cent. For each endpoint it counts, in turn, the servers `pnpm bench`
// compares inkwell with (bench/servers/: the node:http baseline, bare Hono doing the baseline's
// work, Fastify and Express), inkwell with LOG_LEVEL=warn (no access line), inkwell as benchmarked
// (LOG_LEVEL=info), inkwell as benchmarked with POSTS_ACCESS=owner, and with --before, the same
// inkwell built from another checkout. Each server runs under callgrind with instrumentation off, takes a warm-up so V8 has
// optimised the request path, then the counted requests; the count comes from a dump of that
// window alone. The warm-up matters: under valgrind V8's background compiles finish late, and after
// 10 000 requests one run still counted inkwell 35k instructions higher (a hot function not yet
// optimised); after 20 000, runs agree within about 1%. Slow (about 2 minutes per server and
// endpoint); not part of `pnpm bench`. Writes bench/results/instructions.json (the raw folder
// when --only or --before narrows it).
//
// With --functions N it also says where the instructions go: the N functions that spent the most
// in themselves, JIT-compiled JavaScript named through V8's perf map (the servers then run with
// --perf-basic-prof, which changes V8's timing a little: compare such runs with each other).
//
//   pnpm -s build && tsx bench/instructions.ts [--endpoints post,revalidate,list,me,create] [--requests 2000]
//     [--warmup 20000] [--only <regular expression of server names>] [--before <built checkout>]
//     [--functions N]
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { callgrindControl, costByFunction, hasValgrind, readDump, startCounted } from './lib/callgrind.js';
import { captureDataset, writeDataset, type Endpoint, type SignedUp } from './lib/same-work.js';
import { sendExpecting, sendMany, type Call } from './lib/http-client.js';
import { COMPARED, comparedArgs, freePort, inkwellArgs, inkwellEnv, repositoryRoot, startArgs, startServer, type Compared } from './lib/processes.js';

const { values } = parseArgs({
  options: {
    endpoints: { type: 'string', default: 'post,list,me,create' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '20000' },
    only: { type: 'string' },
    before: { type: 'string' },
    functions: { type: 'string', default: '0' },
  },
});
/** How many functions to list per count (0: none). */
const FUNCTIONS = Number(values.functions);
/** `--only 'LOG_LEVEL=info$'`: count only the servers whose names match this regular expression. */
const only = values.only === undefined ? undefined : new RegExp(values.only);
const REQUESTS = Number(values.requests);
const WARMUP = Number(values.warmup);
const rawDir = `${repositoryRoot}bench/results/raw/instructions/`;
if (!hasValgrind()) process.exit(1);

// ---------------------------------------------------------------------------------------------
// What is counted

/**
 * Every server starts from the same state, which inkwell makes itself before the counted window:
 * one author (whose token the authenticated requests carry) and one post of theirs. Ids differ
 * from process to process (a memory store draws a random prefix for them) but never in length,
 * so every counted inkwell does the same work, and the compared servers, which start from what an
 * uncounted inkwell held, are sent that inkwell's ids.
 */
interface State {
  readonly token: string;
  readonly authorId: string;
  readonly postId: string;
}
const signup = { email: 'author@example.com', name: 'Author', password: 'counted password' };
const postBody = (authorId: string) => JSON.stringify({ title: 'Counted', body: 'x'.repeat(420), authorId, published: true });

/** The counted endpoints, each with the request (given the state made). */
const ENDPOINTS: Record<string, (state: State) => Endpoint> = {
  post: ({ postId }) => ({ name: 'GET /posts/:id', call: { method: 'GET', path: `/posts/${postId}` }, wrk: { script: 'get', args: [] } }),
  // The same read revalidated: the post is still at its first version, so inkwell answers 304.
  revalidate: ({ postId }) => ({
    name: 'GET /posts/:id, If-None-Match: its ETag',
    call: { method: 'GET', path: `/posts/${postId}`, headers: { 'If-None-Match': '"1"' } },
    wrk: { script: 'get', args: [] },
  }),
  list: () => ({ name: 'GET /posts?page=1&perPage=20', call: { method: 'GET', path: '/posts?page=1&perPage=20' }, wrk: { script: 'get', args: [] } }),
  me: ({ token }) => ({ name: 'GET /me', call: { method: 'GET', path: '/me', headers: { Authorization: `Bearer ${token}` } }, wrk: { script: 'get', args: [token] } }),
  create: ({ token, authorId }) => ({
    name: 'POST /posts',
    call: { method: 'POST', path: '/posts', headers: { Authorization: `Bearer ${token}` }, body: postBody(authorId) },
    wrk: { script: 'post-json', args: [postBody(authorId), token] },
  }),
};
/** The status each endpoint answers (200 unless said here). */
const EXPECTED: Record<string, number> = { create: 201, revalidate: 304 };
/** Endpoints only inkwell serves as counted (the compared servers answer no conditional request). */
const INKWELL_ONLY = new Set(['revalidate']);
const endpointKeys = (values.endpoints as string).split(',');
for (const key of endpointKeys) if (!ENDPOINTS[key]) throw new Error(`unknown endpoint ${key}: use ${Object.keys(ENDPOINTS).join(', ')}`);

/** A server to count. */
interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Whether it is inkwell, which makes the author and the post itself before the counted window. */
  readonly isInkwell: boolean;
}

const inkwell = (logLevel: string, postsAccess: 'open' | 'owner' = 'open', checkout?: string): Variant => ({
  name: `inkwell${checkout ? ` before (${values.before})` : ''}, LOG_LEVEL=${logLevel}${postsAccess === 'owner' ? ', POSTS_ACCESS=owner' : ''}`,
  args: checkout ? startArgs(checkout) : inkwellArgs,
  env: inkwellEnv(logLevel, postsAccess),
  isInkwell: true,
});

/** The author, their token and their post on `url`: every counted server's state, and the account as signup answered. */
async function prepare(url: string): Promise<State & { readonly signedUp: SignedUp }> {
  const signedUp = await sendExpecting<SignedUp>(url, { method: 'POST', path: '/auth/signup', body: JSON.stringify(signup) }, 201);
  const { token, user } = signedUp;
  const created = await sendExpecting<{ post: { id: string } }>(url, { method: 'POST', path: '/posts', headers: { Authorization: `Bearer ${token}` }, body: postBody(user.id) }, 201);
  return { token, authorId: user.id, postId: created.post.id, signedUp };
}

// ---------------------------------------------------------------------------------------------
// Counting

interface Count {
  readonly endpoint: string;
  readonly name: string;
  readonly mainThread: number;
  readonly allThreads: number;
}

async function count(variant: Variant, key: string, baselineState: State): Promise<Count> {
  const outDir = `${rawDir}${key}-${variant.name.replace(/\W+/g, '-')}/`;
  const server = await startCounted({ name: variant.name, args: variant.args, env: variant.env, readyPath: '/health' }, outDir, FUNCTIONS > 0);
  let endpoint: Endpoint;
  try {
    endpoint = (ENDPOINTS[key] as (state: State) => Endpoint)(variant.isInkwell ? await prepare(server.url) : baselineState);
    const call = (): Call => endpoint.call;
    const expected = EXPECTED[key] ?? 200;
    await sendMany(server.url, WARMUP, 8, call, expected);
    callgrindControl(server.pid, '-i', 'on');
    await sendMany(server.url, REQUESTS, 8, call, expected);
    callgrindControl(server.pid, '-d');
  } finally {
    await server.stop();
  }
  const { mainThread, allThreads, mainThreadFile } = readDump(outDir);
  const result = { endpoint: endpoint.name, name: variant.name, mainThread: mainThread / REQUESTS, allThreads: allThreads / REQUESTS };
  console.log(
    `${endpoint.name}, ${variant.name}: ${(result.mainThread / 1000).toFixed(1)}k instructions per request on the main thread (${(result.allThreads / 1000).toFixed(1)}k in all threads)`,
  );
  if (FUNCTIONS > 0)
    for (const { name, instructions } of costByFunction(mainThreadFile, server.pid, REQUESTS, repositoryRoot).slice(0, FUNCTIONS))
      console.log(`  ${Math.round(instructions).toString().padStart(7)}  ${name.slice(0, 140)}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// The run

mkdirSync(rawDir, { recursive: true });
// The compared servers' data, from an uncounted inkwell in the same state.
const datasetPath = `${rawDir}dataset.json`;
let baselineState: State;
{
  const source = await startServer({ ...inkwell('info'), readyPath: '/health' }, await freePort());
  try {
    const prepared = await prepare(source.url);
    baselineState = prepared;
    writeDataset(datasetPath, await captureDataset(source.url, [prepared.signedUp]));
  } finally {
    await source.stop();
  }
}

const beforeCheckout = values.before ? resolve(values.before) : undefined;
const variants: Variant[] = [
  ...(Object.keys(COMPARED) as Compared[]).map((server) => ({ name: COMPARED[server].name, args: comparedArgs(server, datasetPath), env: {}, isInkwell: false })),
  inkwell('warn'),
  ...(beforeCheckout ? [inkwell('info', 'open', beforeCheckout)] : []),
  inkwell('info'),
  inkwell('info', 'owner'),
].filter((variant) => !only || only.test(variant.name));

const counts: Count[] = [];
for (const key of endpointKeys) {
  for (const variant of variants) if (variant.isInkwell || !INKWELL_ONLY.has(key)) counts.push(await count(variant, key, baselineState));
}

// Speeds as the targets read them: another server's count ÷ this one's (0.8: this one does 1.25 times the work).
console.log('\n| Endpoint | Server | Instructions per request (main thread) | speed ÷ bare Hono | speed ÷ baseline |\n|---|---|---:|---:|---:|');
for (const c of counts) {
  const speedAgainst = (name: string) => {
    const other = counts.find((o) => o.endpoint === c.endpoint && o.name === name);
    return other ? `${(other.mainThread / c.mainThread).toFixed(2)}×` : '–';
  };
  console.log(`| ${c.endpoint} | ${c.name} | ${(c.mainThread / 1000).toFixed(1)}k | ${speedAgainst(COMPARED.hono.name)} | ${speedAgainst(COMPARED.baseline.name)} |`);
}
const narrowed = only !== undefined || beforeCheckout !== undefined || values.endpoints !== 'post,list,me,create';
writeFileSync(
  narrowed ? `${rawDir}instructions-narrowed.json` : `${repositoryRoot}bench/results/instructions.json`,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, requests: REQUESTS, warmup: WARMUP, before: values.before ?? null, counts }, null, 2)}\n`,
);

// WEB_CONCURRENCY=1 against WEB_CONCURRENCY=2 on MongoDB (the cluster mode refuses the memory
// store). Needs a MongoDB: DB_URL (default mongodb://127.0.0.1:27017), the variable the server
// reads too. Writes bench/results/cluster.json and prints a table.
//
//   pnpm -s build && DB_URL=mongodb://127.0.0.1:27018 tsx bench/cluster.ts [--seconds 5] [--rounds 3]
//
// No CPU pinning here: the point is to use both cores. wrk, the workers and (when it runs on this
// machine) the database share them, so the figures say what this machine can do, not a ceiling.
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sendExpecting, sendMany } from './lib/http-client.js';
import { BENCH_JWT_SECRET, BENCH_POST_WRITES, freePort, inkwellArgs, repositoryRoot, startServer } from './lib/processes.js';
import { median } from './lib/stats.js';
import { runWrk } from './lib/wrk.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } } });
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const DB_URL = process.env.DB_URL ?? 'mongodb://127.0.0.1:27017';
const DATABASE = `inkwell_bench_${randomBytes(4).toString('hex')}`;

interface Figures {
  readonly workers: number;
  readonly getPost: { readonly rps: number; readonly p99Ms: number };
  readonly notFound: { readonly rps: number; readonly p99Ms: number };
}

async function measure(workers: number): Promise<Figures> {
  const server = await startServer(
    {
      name: `inkwell ×${workers}`,
      args: [...inkwellArgs],
      env: {
        DB_URL,
        DB_DATABASE: DATABASE,
        JWT_SECRET: BENCH_JWT_SECRET,
        NODE_ENV: 'production',
        WEB_CONCURRENCY: String(workers),
        SHUTDOWN_DRAIN_SECONDS: '0',
        POST_WRITES_MAX_PER_ADDRESS: BENCH_POST_WRITES,
      },
      readyPath: '/health',
    },
    await freePort(),
  );
  try {
    await sendMany(
      server.url,
      100,
      8,
      (i) => ({ method: 'POST', path: '/posts', body: JSON.stringify({ title: `Post ${i}`, body: 'Lorem ipsum. '.repeat(25), authorId: 'bench', published: true }) }),
      201,
    );
    const { posts } = await sendExpecting<{ posts: Array<{ id: string }> }>(server.url, { method: 'GET', path: '/posts?perPage=1' }, 200);
    const load = (path: string) => runWrk({ url: `${server.url}${path}`, script: 'get', connections: 50, seconds: SECONDS });
    const getPost: Array<{ rps: number; p99Ms: number }> = [];
    const notFound: Array<{ rps: number; p99Ms: number }> = [];
    await load(`/posts/${posts[0]?.id}`);
    for (let round = 0; round < ROUNDS; round++) {
      getPost.push(await load(`/posts/${posts[0]?.id}`));
      notFound.push(await load('/no-such-route'));
    }
    const summary = (runs: Array<{ rps: number; p99Ms: number }>) => ({ rps: median(runs.map((r) => r.rps)), p99Ms: median(runs.map((r) => r.p99Ms)) });
    return { workers, getPost: summary(getPost), notFound: summary(notFound) };
  } finally {
    const code = await server.stop();
    if (code !== 0) console.error(`inkwell ×${workers} exited with ${code} on SIGTERM`);
  }
}

async function dropDatabase(): Promise<void> {
  const client = new MongoClient(DB_URL, { serverSelectionTimeoutMS: 2000 });
  try {
    await client.db(DATABASE).dropDatabase();
  } finally {
    await client.close();
  }
}

try {
  const figures = [await measure(1), await measure(2)];
  for (const f of figures)
    console.log(
      `WEB_CONCURRENCY=${f.workers}: GET /posts/:id ${Math.round(f.getPost.rps)} req/s (p99 ${f.getPost.p99Ms.toFixed(1)} ms), ` +
        `404 (no database) ${Math.round(f.notFound.rps)} req/s (p99 ${f.notFound.p99Ms.toFixed(1)} ms)`,
    );
  const [one, two] = figures as [Figures, Figures];
  console.log(`2 workers ÷ 1: GET /posts/:id ${(two.getPost.rps / one.getPost.rps).toFixed(2)}×, 404 ${(two.notFound.rps / one.notFound.rps).toFixed(2)}×`);
  writeFileSync(
    `${repositoryRoot}bench/results/cluster.json`,
    `${JSON.stringify({ date: new Date().toISOString(), mongodbUrl: DB_URL.replace(/\/\/[^@/]*@/, '//***@'), seconds: SECONDS, rounds: ROUNDS, figures }, null, 2)}\n`,
  );
} finally {
  await dropDatabase();
}

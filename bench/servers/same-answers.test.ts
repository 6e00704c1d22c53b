import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendExpecting, sendMany } from '../lib/http-client.js';
import { COMPARED, comparedArgs, freePort, inkwellEnv, startServer, type Compared, type ServerProcess } from '../lib/processes.js';
import { captureDataset, checkSameAnswers, writeDataset, type Endpoint, type SignedUp } from '../lib/same-work.js';

// What `pnpm bench` checks before it loads anything, checked here too, so that a change to
// inkwell's answers that the compared servers do not follow fails the tests and not a bench run
// hours later: inkwell (from source) and every compared server on what it holds, every
// benchmarked endpoint and its rule checks.

let directory: string;
let inkwell: ServerProcess;
const others: ServerProcess[] = [];
let endpoints: Endpoint[];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'inkwell-same-answers-'));
  inkwell = await startServer(
    { name: 'inkwell', args: ['--conditions=source', '--import', 'tsx', 'packages/app/src/main.ts'], env: inkwellEnv('info'), readyPath: '/health', readyTimeoutMs: 60_000 },
    await freePort(),
  );
  const signup = { email: 'same@example.com', name: 'Same', password: 'same answers 0123' };
  const signedUp = await sendExpecting<SignedUp>(inkwell.url, { method: 'POST', path: '/auth/signup', body: JSON.stringify(signup) }, 201);
  const post = (i: number) => JSON.stringify({ title: `Post ${i}`, body: `The body of post ${i}, with "quotes" and ü.`, authorId: signedUp.user.id, published: true });
  await sendMany(inkwell.url, 25, 4, (i) => ({ method: 'POST', path: '/posts', headers: { Authorization: `Bearer ${signedUp.token}` }, body: post(i) }), 201);
  const first = await sendExpecting<{ posts: Array<{ id: string }> }>(inkwell.url, { method: 'GET', path: '/posts?perPage=1' }, 200);
  const datasetPath = join(directory, 'dataset.json');
  writeDataset(datasetPath, await captureDataset(inkwell.url, [signedUp]));
  others.push(
    ...(await Promise.all(
      (Object.keys(COMPARED) as Compared[]).map(async (key) =>
        startServer({ name: COMPARED[key].name, args: comparedArgs(key, datasetPath), env: {}, readyPath: '/health', readyTimeoutMs: 60_000 }, await freePort()),
      ),
    )),
  );
  const get = (path: string, headers?: Record<string, string>): Endpoint => ({ name: `GET ${path}`, call: { method: 'GET', path, headers }, wrk: { script: 'get', args: [] } });
  endpoints = [
    get(`/posts/${first.posts[0]?.id as string}`),
    get('/posts?page=1&perPage=20'),
    get('/posts?page=2&perPage=20'),
    get('/me', { Authorization: `Bearer ${signedUp.token}` }),
    { name: 'POST /posts', call: { method: 'POST', path: '/posts', body: post(99) }, wrk: { script: 'post-json', args: [] } },
  ];
}, 180_000);

afterAll(async () => {
  await Promise.all([inkwell, ...others].filter(Boolean).map((server) => server.stop()));
  rmSync(directory, { recursive: true, force: true });
});

it("every compared server answers each benchmarked endpoint with inkwell's bytes, and rules on its refusals as inkwell does", async () => {
  const sizes = await checkSameAnswers(inkwell.url, others, endpoints);
  expect([...sizes.keys()]).toEqual(endpoints.map((endpoint) => endpoint.name));
}, 60_000);

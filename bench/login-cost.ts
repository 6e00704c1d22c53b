// What counting the abuse limits in MongoDB costs a login and a signup: two servers in one
// process on one MongoDB database, the same in every way but where their limits count, measured
// in alternating rounds. "in-process" counts in the process (as the memory store does); "mongodb"
// counts in the attemptLimits collection (as every MongoDB deployment does). Logins are measured
// twice: with the real bcrypt pool (what a client waits for) and with a hasher that costs nothing
// (so the limiter's share is not lost in the noise of bcrypt).
//
//   pnpm -s build && DB_URL=mongodb://127.0.0.1:27017 tsx bench/login-cost.ts [--rounds 5]
//
// Writes bench/results/login-cost.json.
import { createLogger, openStore, readConfig, startServer, type RunningServer, type Store } from '@inkwell/app';
import { createInMemoryAttemptLimiter, type PasswordHasher } from '@inkwell/domain';
import { fakePasswordHasher } from '@inkwell/domain/testing';
import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { send } from './lib/http-client.js';
import { repositoryRoot } from './lib/processes.js';
import { median, percentile, round } from './lib/stats.js';

const { values: options } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const ROUNDS = Number(options.rounds);
const FAST_PER_ROUND = 200;
const BCRYPT_PER_ROUND = 6;
const PASSWORD = 'bench password 0123';
const url = process.env.DB_URL;
if (!url) {
  console.error('bench/login-cost.ts needs DB_URL=mongodb://… (a real MongoDB, or a wire-protocol test server).');
  process.exit(1);
}

type Variant = 'in-process' | 'mongodb';
type Kind = 'login (no hashing)' | 'signup (no hashing)' | 'login (bcrypt cost 12)';

const database = `inkwell_bench_login_${randomBytes(4).toString('hex')}`;
const logger = createLogger('silent');
const config = readConfig({
  DB_URL: url,
  DB_DATABASE: database,
  PORT: '0',
  HOST: '127.0.0.1',
  JWT_SECRET: 'bench-login-cost-secret-0123456789abcdef',
  HASH_WORKERS: '2',
  // Every signup here comes from one address: a limit that counts them all but never refuses.
  SIGNUP_MAX_PER_ADDRESS: '1000000',
});

/** A server on the database whose limits count in `variant`, hashing with `hasher` (the real pool when undefined). */
async function serve(variant: Variant, hasher?: PasswordHasher): Promise<RunningServer> {
  const opened = await openStore(config);
  const store: Store =
    variant === 'mongodb'
      ? opened
      : { ...opened, attemptLimiter: ({ max, windowSeconds }, clock) => createInMemoryAttemptLimiter({ max, windowSeconds, clock }) };
  return startServer(config, logger, { overrides: { store, ...(hasher ? { hasher } : {}) } });
}

const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });

/** Milliseconds per call of `count` sequential requests on one keep-alive connection. */
async function time(base: string, count: number, call: (i: number) => { method: string; path: string; body: string }): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const reply = await send(base, call(i));
    samples.push(performance.now() - started);
    if (reply.status >= 300) throw new Error(`${call(i).path} answered ${reply.status}: ${reply.text}`);
  }
  return samples;
}

let signups = 0;
async function measure(server: RunningServer, kind: Kind, count: number, email: string): Promise<number[]> {
  if (kind === 'signup (no hashing)') {
    return time(server.url, count, () => ({ path: '/auth/signup', ...json({ email: `s${++signups}@example.com`, name: 'S', password: PASSWORD }) }));
  }
  return time(server.url, count, () => ({ path: '/auth/login', ...json({ email, password: PASSWORD }) }));
}

const fast = { 'in-process': await serve('in-process', fakePasswordHasher()), mongodb: await serve('mongodb', fakePasswordHasher()) };
const real = { 'in-process': await serve('in-process'), mongodb: await serve('mongodb') };
// One account per server, so neither's correct logins touch the other's counts.
for (const [variant, server] of [...Object.entries(fast), ...Object.entries(real)]) {
  const email = `${variant}-${server.port}@example.com`;
  const reply = await send(server.url, { path: '/auth/signup', ...json({ email, name: 'B', password: PASSWORD }) });
  if (reply.status !== 201) throw new Error(`signup answered ${reply.status}`);
}
const accountOf = (server: RunningServer, variant: Variant) => `${variant}-${server.port}@example.com`;

const samples = new Map<string, number[]>();
const keep = (kind: Kind, variant: Variant, values: number[]) => {
  const key = `${kind}|${variant}`;
  samples.set(key, [...(samples.get(key) ?? []), ...values]);
};
for (let round = 0; round < ROUNDS; round++) {
  // A B then B A, so neither variant always runs first.
  const order: Variant[] = round % 2 === 0 ? ['in-process', 'mongodb'] : ['mongodb', 'in-process'];
  for (const variant of order) {
    keep('login (no hashing)', variant, await measure(fast[variant], 'login (no hashing)', FAST_PER_ROUND, accountOf(fast[variant], variant)));
    keep('signup (no hashing)', variant, await measure(fast[variant], 'signup (no hashing)', FAST_PER_ROUND / 4, ''));
    keep('login (bcrypt cost 12)', variant, await measure(real[variant], 'login (bcrypt cost 12)', BCRYPT_PER_ROUND, accountOf(real[variant], variant)));
  }
  process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
}

const rows = [...samples].map(([key, values]) => {
  const [kind, variant] = key.split('|') as [Kind, Variant];
  return { kind, variant, count: values.length, p50Ms: round(median(values), 3), p90Ms: round(percentile(values, 90), 3), meanMs: round(values.reduce((a, b) => a + b, 0) / values.length, 3) };
});
const lines = ['| Request | Limits counted | n | p50 ms | p90 ms | mean ms |', '|---|---|---:|---:|---:|---:|'];
for (const row of rows) lines.push(`| ${row.kind} | ${row.variant} | ${row.count} | ${row.p50Ms} | ${row.p90Ms} | ${row.meanMs} |`);
process.stdout.write(`\n${lines.join('\n')}\n`);
mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
writeFileSync(
  `${repositoryRoot}bench/results/login-cost.json`,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, mongodb: url.replace(/\/\/[^@/]*@/, '//***@'), rounds: ROUNDS, rows }, null, 2)}\n`,
);

await Promise.all([...Object.values(fast), ...Object.values(real)].map((server) => server.close()));
// Each server closed its own store's connection; one more drops the database.
const client = await new MongoClient(url).connect();
await client.db(database).dropDatabase();
await client.close();

// Whether `POST /auth/password-reset` tells by its time that an address has an account: requests
// for an address with one and for an address without one, interleaved one by one on one server
// (so both meet the same machine, the same garbage collections and the same delivery work running
// behind the answers), and the p50 of each. The request path does the same work for both by
// construction (the limits, one outbox write, no look-up); this measures that it stays so.
// Assertion-free: it reports, it does not judge (speed lives in benchmarks, not in tests).
//
//   pnpm -s build && tsx bench/reset-timing.ts [--requests 2000] [--warmup 500]
//   DB_URL=mongodb://127.0.0.1:27017 tsx bench/reset-timing.ts   (the MongoDB store as well)
//
// Writes bench/results/reset-timing.json.
import { createLogger, openStore, readConfig, startServer, type RunningServer } from '@inkwell/app';
import { fakePasswordHasher } from '@inkwell/domain/testing';
import { MongoClient } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { send, sendExpecting } from './lib/http-client.js';
import { repositoryRoot } from './lib/processes.js';
import { median, percentile, round } from './lib/stats.js';

const { values: options } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, warmup: { type: 'string', default: '500' } } });
const REQUESTS = Number(options.requests);
const WARMUP = Number(options.warmup);
const KNOWN = 'known@example.com';
const UNKNOWN = 'unknown@example.com';
const mongoUrl = process.env.DB_URL?.startsWith('mongodb') ? process.env.DB_URL : undefined;
const database = `inkwell_bench_reset_${randomBytes(4).toString('hex')}`;

/**
 * A server with mail on (`log:`, into a silent logger: the delivery loop runs, finds the account,
 * records the link and "sends"), the limits counted but set far above what the run asks.
 */
async function serve(store: 'memory' | 'mongodb'): Promise<RunningServer> {
  const config = readConfig({
    DB_URL: store === 'memory' ? 'memory:' : (mongoUrl as string),
    DB_DATABASE: database,
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: 'bench-reset-timing-secret-0123456789abcdef',
    MAIL_URL: 'log:',
    PASSWORD_RESET_MAX_PER_EMAIL: '1000000',
    PASSWORD_RESET_MAX_PER_ADDRESS: '1000000',
  });
  const server = await startServer(config, createLogger('silent'), { overrides: { store: await openStore(config), hasher: fakePasswordHasher() } });
  await sendExpecting(server.url, { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: KNOWN, name: 'Known', password: 'bench password 0123' }) }, 201);
  return server;
}

/** Milliseconds per request, for each address, asked for in turn on one keep-alive connection. */
async function measure(server: RunningServer, count: number): Promise<{ known: number[]; unknown: number[] }> {
  const samples = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < count; i++) {
    // known, unknown, then unknown, known: neither always goes first.
    const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const which of order) {
      const started = performance.now();
      const reply = await send(server.url, { method: 'POST', path: '/auth/password-reset', body: JSON.stringify({ email: which === 'known' ? KNOWN : UNKNOWN }) });
      samples[which].push(performance.now() - started);
      if (reply.status !== 202) throw new Error(`POST /auth/password-reset answered ${reply.status}: ${reply.text}`);
    }
  }
  return samples;
}

const rows = [];
for (const store of mongoUrl ? (['memory', 'mongodb'] as const) : (['memory'] as const)) {
  const server = await serve(store);
  try {
    await measure(server, WARMUP);
    const { known, unknown } = await measure(server, REQUESTS);
    const [knownP50, unknownP50] = [median(known), median(unknown)];
    rows.push({
      store,
      count: REQUESTS,
      knownP50Ms: round(knownP50, 3),
      unknownP50Ms: round(unknownP50, 3),
      p50DifferencePercent: round((100 * Math.abs(knownP50 - unknownP50)) / Math.min(knownP50, unknownP50), 1),
      knownP90Ms: round(percentile(known, 90), 3),
      unknownP90Ms: round(percentile(unknown, 90), 3),
    });
  } finally {
    await server.close();
  }
}

const lines = ['| Store | n each | known p50 ms | unknown p50 ms | p50 difference | known p90 ms | unknown p90 ms |', '|---|---:|---:|---:|---:|---:|---:|'];
for (const row of rows) {
  lines.push(`| ${row.store} | ${row.count} | ${row.knownP50Ms} | ${row.unknownP50Ms} | ${row.p50DifferencePercent}% | ${row.knownP90Ms} | ${row.unknownP90Ms} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
writeFileSync(
  `${repositoryRoot}bench/results/reset-timing.json`,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, requests: REQUESTS, warmup: WARMUP, rows }, null, 2)}\n`,
);
if (mongoUrl) {
  const client = await new MongoClient(mongoUrl).connect();
  await client.db(database).dropDatabase();
  await client.close();
}

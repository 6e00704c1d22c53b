// Whether `POST /auth/password-reset` tells that an address has an account, by its own time or by
// what follows it. inkwell runs as `pnpm start` runs it, in a process of its own, with mail on
// through a real SMTP server in another process (STARTTLS, the real dialogue), and this process
// only measures, as a client would:
//
// - the answer: requests for an address with an account and for one without, interleaved one by
//   one, and the p50 of each;
// - what follows the answer (the security review's probe): right after each 202, `--probes`
//   `GET /health/live` sent one after another on the same connection, and the time they took in
//   all (and the slowest one); trials of both kinds in a shuffled order, `--gap-ms` apart so that
//   the delivery a trial causes has ended before the next; then the AUC of telling a known address
//   from an unknown one by that time (0.5 tells nothing), and the best one-request guess.
//   `--window-ms` probes for that long instead of `--probes` times: an attacker who waits for the
//   delivery rather than catching only its first milliseconds.
//
// Assertion-free: it reports, it does not judge (speed lives in benchmarks, not in tests).
//
//   pnpm -s build && tsx bench/reset-timing.ts [--trials 400] [--answers 1000] [--window-ms 0]
//   DB_URL=mongodb://127.0.0.1:27017 tsx bench/reset-timing.ts   (the MongoDB store as well)
//   tsx bench/reset-timing.ts --checkout ../inkwell-before   (the build of another checkout, to compare)
//
// Writes bench/results/reset-timing.json.
import { MongoClient } from 'mongodb';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { send, sendExpecting } from './lib/http-client.js';
import { BENCH_JWT_SECRET, freePort, inkwellArgs, repositoryRoot, startArgs, startServer, type ServerProcess } from './lib/processes.js';
import { areaUnderCurve, bestThresholdAccuracy, median, percentile, round } from './lib/stats.js';

const { values: options } = parseArgs({
  options: {
    trials: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '40' },
    probes: { type: 'string', default: '8' },
    'window-ms': { type: 'string', default: '0' },
    'gap-ms': { type: 'string', default: '1500' },
    answers: { type: 'string', default: '1000' },
    store: { type: 'string' },
    checkout: { type: 'string' },
  },
});
const TRIALS = Number(options.trials);
const WARMUP = Number(options.warmup);
const PROBES = Number(options.probes);
const WINDOW_MS = Number(options['window-ms']);
const GAP_MS = Number(options['gap-ms']);
const ANSWERS = Number(options.answers);
const KNOWN = 'known@example.com';
const UNKNOWN = 'unknown@example.com';
const mongoUrl = process.env.DB_URL?.startsWith('mongodb') ? process.env.DB_URL : undefined;
const MANY = '1000000';

type Which = 'known' | 'unknown';

/** The SMTP server, in a process of its own; resolves once it listens. */
async function startMailSink() {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'bench/lib/smtp-sink.ts'], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  let mails = 0;
  const ready = new Promise<{ url: string; caFile: string }>((resolve) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as { url: string; caFile: string });
      else if (line.startsWith('mail ')) mails++;
    });
  });
  return { ...(await ready), mails: () => mails, stop: () => child.kill('SIGTERM') };
}

/** inkwell with mail on through `mail`, the limits and the mail budget set far above what the run asks. */
async function startInkwell(store: 'memory' | 'mongodb', mail: { url: string; caFile: string }, database: string): Promise<ServerProcess> {
  const server = await startServer(
    {
      name: `inkwell (${store})`,
      args: options.checkout === undefined ? inkwellArgs : startArgs(options.checkout),
      env: {
        DB_URL: store === 'memory' ? 'memory:' : (mongoUrl as string),
        DB_DATABASE: database,
        JWT_SECRET: BENCH_JWT_SECRET,
        NODE_ENV: 'production',
        SHUTDOWN_DRAIN_SECONDS: '0',
        HASH_WORKERS: '1',
        MAIL_URL: mail.url,
        MAIL_FROM: 'bench <no-reply@bench.test>',
        APP_URL: 'https://app.bench.test',
        NODE_EXTRA_CA_CERTS: mail.caFile,
        PASSWORD_RESET_MAX_PER_EMAIL: MANY,
        PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: MANY,
        PASSWORD_RESET_MAX_PER_ADDRESS: MANY,
        MAIL_MAX_PER_RECIPIENT: MANY,
      },
      readyPath: '/health/live',
    },
    await freePort(),
  );
  await sendExpecting(server.url, { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: KNOWN, name: 'Known', password: 'bench password 0123' }) }, 201);
  return server;
}

const resetOf = (which: Which) => ({ method: 'POST', path: '/auth/password-reset', body: JSON.stringify({ email: which === 'known' ? KNOWN : UNKNOWN }) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds per answer, for each address, asked for in turn on one keep-alive connection. */
async function answerTimes(url: string, count: number): Promise<Record<Which, number[]>> {
  const samples: Record<Which, number[]> = { known: [], unknown: [] };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < count; i++) {
    // known, unknown, then unknown, known: neither always goes first.
    for (const which of i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      const started = performance.now();
      const reply = await send(url, resetOf(which), agent);
      samples[which].push(performance.now() - started);
      if (reply.status !== 202) throw new Error(`POST /auth/password-reset answered ${reply.status}: ${reply.text}`);
    }
  }
  agent.destroy();
  return samples;
}

/** What the probes after one 202 saw: their total time, the slowest, and how many ran. */
interface Probed {
  readonly totalMs: number;
  readonly slowestMs: number;
  readonly count: number;
}

/** One trial: a reset for `which`, then the probes on the same connection, right after its 202. */
async function trial(url: string, agent: Agent, which: Which): Promise<Probed> {
  const reply = await send(url, resetOf(which), agent);
  if (reply.status !== 202) throw new Error(`POST /auth/password-reset answered ${reply.status}: ${reply.text}`);
  const times: number[] = [];
  const started = performance.now();
  while (WINDOW_MS > 0 ? performance.now() - started < WINDOW_MS : times.length < PROBES) {
    const sent = performance.now();
    const probe = await send(url, { method: 'GET', path: '/health/live' }, agent);
    times.push(performance.now() - sent);
    if (probe.status !== 200) throw new Error(`GET /health/live answered ${probe.status}`);
  }
  return { totalMs: times.reduce((a, b) => a + b, 0), slowestMs: Math.max(...times), count: times.length };
}

/** `count` trials of each kind in a shuffled order, `GAP_MS` apart. */
async function probeTrials(url: string, count: number): Promise<Record<Which, Probed[]>> {
  const order: Which[] = [...Array<Which>(count).fill('known'), ...Array<Which>(count).fill('unknown')];
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomBytes(4).readUInt32LE() % (i + 1);
    [order[i], order[j]] = [order[j] as Which, order[i] as Which];
  }
  const seen: Record<Which, Probed[]> = { known: [], unknown: [] };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (const which of order) {
    seen[which].push(await trial(url, agent, which));
    await sleep(GAP_MS);
  }
  agent.destroy();
  return seen;
}

const rows = [];
const load = { before: loadavg().map((x) => round(x, 2)) };
const mail = await startMailSink();
try {
  const stores = options.store ? [options.store as 'memory' | 'mongodb'] : mongoUrl ? (['memory', 'mongodb'] as const) : (['memory'] as const);
  for (const store of stores) {
    const database = `inkwell_bench_reset_${randomBytes(4).toString('hex')}`;
    const server = await startInkwell(store, mail, database);
    try {
      await probeTrials(server.url, WARMUP / 2);
      const seen = await probeTrials(server.url, TRIALS / 2);
      await answerTimes(server.url, Math.min(ANSWERS, 200));
      const answers = await answerTimes(server.url, ANSWERS);
      const total = (which: Which) => seen[which].map((probed) => probed.totalMs);
      const slowest = (which: Which) => seen[which].map((probed) => probed.slowestMs);
      const count = (which: Which) => seen[which].map((probed) => -probed.count);
      rows.push({
        store,
        trials: TRIALS,
        probing: WINDOW_MS > 0 ? `${WINDOW_MS} ms` : `${PROBES} probes`,
        aucTotal: round(areaUnderCurve(total('known'), total('unknown')), 3),
        aucSlowest: round(areaUnderCurve(slowest('known'), slowest('unknown')), 3),
        ...(WINDOW_MS > 0 ? { aucFewerProbes: round(areaUnderCurve(count('known'), count('unknown')), 3) } : {}),
        bestGuessPercent: round(100 * bestThresholdAccuracy(total('known'), total('unknown')), 1),
        probesKnownP50Ms: round(median(total('known')), 3),
        probesUnknownP50Ms: round(median(total('unknown')), 3),
        answerKnownP50Ms: round(median(answers.known), 3),
        answerUnknownP50Ms: round(median(answers.unknown), 3),
        answerKnownP90Ms: round(percentile(answers.known, 90), 3),
        answerUnknownP90Ms: round(percentile(answers.unknown, 90), 3),
      });
    } finally {
      await server.stop();
      if (store === 'mongodb') {
        const client = await new MongoClient(mongoUrl as string).connect();
        await client.db(database).dropDatabase();
        await client.close();
      }
    }
  }
} finally {
  mail.stop();
}
const loadAfter = loadavg().map((x) => round(x, 2));

const lines = [
  '| Store | probing | trials | AUC (total) | AUC (slowest) | AUC (fewer probes) | best guess | probes p50 known / unknown ms | answer p50 known / unknown ms |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const row of rows) {
  const fewer = 'aucFewerProbes' in row ? row.aucFewerProbes : '–';
  lines.push(
    `| ${row.store} | ${row.probing} | ${row.trials} | ${row.aucTotal} | ${row.aucSlowest} | ${fewer} | ${row.bestGuessPercent}% | ${row.probesKnownP50Ms} / ${row.probesUnknownP50Ms} | ${row.answerKnownP50Ms} / ${row.answerUnknownP50Ms} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\nload average before ${load.before.join(' ')}, after ${loadAfter.join(' ')}; mails received ${mail.mails()}\n`);
mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
writeFileSync(
  `${repositoryRoot}bench/results/reset-timing.json`,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, checkout: options.checkout ?? 'this one', loadAverage: { before: load.before, after: loadAfter }, gapMs: GAP_MS, rows }, null, 2)}\n`,
);

// Signup, login and GET /me of this checkout against another built checkout, in the same run: two
// server processes (bench/account-server.ts), the same in every way but their code, measured in
// alternating rounds (A B C, then C B A) with sequential requests on one keep-alive connection each,
// and this checkout once more with mail off, which tells the outbox's share from the rest.
// The hasher costs nothing, so bcrypt's 300 ms (the same in both, on threads of its own) does not
// hide what the request path costs. Mail is on (`log:`, into a silent logger) but in the build with
// mail off: the delivery loop runs, so a signup's server CPU includes delivering its verification
// mail; "signup 2 ms apart" leaves it the time to, as signups that do not come back to back do.
//
//   pnpm -s build && tsx bench/account-cost.ts --before <checkout with packages/app/dist built> [--rounds 5]
//   tsx bench/account-cost.ts --before <checkout> --instructions [--warmup 20000] [--requests 2000]
//
// Reports p50 and p90 milliseconds per answer, and the server process's CPU (every thread, from
// /proc, 10 ms ticks summed over the rounds) per request. Writes bench/results/account-cost.json.
// With --instructions it counts instead, as bench/instructions.ts does, the instructions per
// signup and per login on each server's main thread under callgrind (about 1.5 minutes a server),
// and writes bench/results/account-instructions.json.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { callgrindControl, hasValgrind, readDump, startCounted } from './lib/callgrind.js';
import { send, sendExpecting, sendMany, type Call } from './lib/http-client.js';
import { freePort, repositoryRoot, startServer, type ServerProcess, type ServerSpec } from './lib/processes.js';
import { median, percentile, round } from './lib/stats.js';

const { values: options } = parseArgs({
  options: {
    before: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    instructions: { type: 'boolean', default: false },
    warmup: { type: 'string', default: '20000' },
    requests: { type: 'string', default: '2000' },
  },
});
if (!options.before || !existsSync(resolve(options.before, 'packages/app/dist/index.js'))) {
  console.error('usage: tsx bench/account-cost.ts --before <checkout with packages/app/dist built> [--rounds 5]');
  process.exit(2);
}
const ROUNDS = Number(options.rounds);
const PER_ROUND = { signup: 1000, 'signup 2 ms apart': 300, login: 1000, me: 3000 } as const;
/** The builds compared: the other checkout, and this one with mail on and with mail off (production without MAIL_URL). */
const VERSIONS = ['before', 'after', 'after, mail off'] as const;
const PASSWORD = 'bench password 0123';

type Version = (typeof VERSIONS)[number];
type Kind = keyof typeof PER_ROUND;
const KINDS = Object.keys(PER_ROUND) as Kind[];

const checkouts: Record<Version, string> = { before: resolve(options.before), after: repositoryRoot, 'after, mail off': repositoryRoot };

/** How a server process of `version` starts. */
function specOf(version: Version): ServerSpec {
  const mail: Record<string, string> = version === 'after, mail off' ? { NODE_ENV: 'production' } : { MAIL_URL: 'log:' };
  const env = { DB_URL: 'memory:', JWT_SECRET: 'bench-account-cost-secret-0123456789abcdef', SIGNUP_MAX_PER_ADDRESS: '100000000', LOG_LEVEL: 'silent', ...mail };
  return { name: version, args: ['--import', 'tsx', 'bench/account-server.ts', checkouts[version]], env, readyPath: '/health' };
}

/** Answers `server` with the token of an account that only reads /me, once the login account exists too. */
async function prepare(server: ServerProcess): Promise<{ server: ServerProcess; token: string }> {
  const signUp = (email: string) => sendExpecting<{ token: string }>(server.url, { method: 'POST', path: '/auth/signup', body: JSON.stringify({ email, name: 'B', password: PASSWORD }) }, 201);
  // GET /me's account never logs in, so no login past the session bound ends its session.
  const { token } = await signUp('me@example.com');
  await signUp('login@example.com');
  return { server, token };
}

const servers = {} as Record<Version, { server: ServerProcess; token: string }>;
let signups = 0;
const calls: Record<Kind, (version: Version) => Call> = {
  signup: () => ({ method: 'POST', path: '/auth/signup', body: JSON.stringify({ email: `s${++signups}@example.com`, name: 'S', password: PASSWORD }) }),
  'signup 2 ms apart': () => calls.signup('before'),
  login: () => ({ method: 'POST', path: '/auth/login', body: JSON.stringify({ email: 'login@example.com', password: PASSWORD }) }),
  me: (version) => ({ method: 'GET', path: '/me', headers: { authorization: `Bearer ${servers[version].token}` } }),
};

if (options.instructions) {
  if (!hasValgrind()) process.exit(1);
  const [warmup, requests] = [Number(options.warmup), Number(options.requests)];
  const rows: { kind: Kind; version: Version; mainThread: number; allThreads: number }[] = [];
  for (const kind of ['signup', 'login'] as const) {
    for (const version of VERSIONS) {
      const outDir = `${repositoryRoot}bench/results/raw/account-instructions/${kind}-${version.replace(/\W+/g, '-')}/`;
      const server = await startCounted(specOf(version), outDir);
      try {
        await prepare(server);
        await sendMany(server.url, warmup, 8, () => calls[kind](version), kind === 'signup' ? 201 : 200);
        callgrindControl(server.pid, '-i', 'on');
        await sendMany(server.url, requests, 8, () => calls[kind](version), kind === 'signup' ? 201 : 200);
        callgrindControl(server.pid, '-d');
      } finally {
        await server.stop();
      }
      const { mainThread, allThreads } = readDump(outDir);
      rows.push({ kind, version, mainThread: round(mainThread / requests / 1000, 1), allThreads: round(allThreads / requests / 1000, 1) });
      process.stdout.write(`${kind}, ${version}: ${(rows.at(-1) as { mainThread: number }).mainThread}k instructions per request on the main thread\n`);
    }
  }
  const lines = ['| Request | Build | k instructions per request, main thread | all threads |', '|---|---|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.kind} | ${row.version} | ${row.mainThread}k | ${row.allThreads}k |`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  writeFileSync(
    `${repositoryRoot}bench/results/account-instructions.json`,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, before: options.before, warmup, requests, rows }, null, 2)}\n`,
  );
  process.exit(0);
}

for (const version of VERSIONS) servers[version] = await prepare(await startServer(specOf(version), await freePort()));
const samples = new Map<string, { ms: number[]; cpuMicros: number; count: number }>();
async function measure(version: Version, kind: Kind): Promise<void> {
  const key = `${kind}|${version}`;
  const kept = samples.get(key) ?? { ms: [], cpuMicros: 0, count: 0 };
  const { server } = servers[version];
  const cpu = server.cpuMicros();
  for (let i = 0; i < PER_ROUND[kind]; i++) {
    const started = performance.now();
    const reply = await send(server.url, calls[kind](version));
    kept.ms.push(performance.now() - started);
    if (reply.status >= 300) throw new Error(`${kind} on ${version} answered ${reply.status}: ${reply.text}`);
    // Signups as they come in life, apart: the previous one's verification mail is out of the way.
    if (kind === 'signup 2 ms apart') await new Promise((resolve) => setTimeout(resolve, 2));
  }
  samples.set(key, { ms: kept.ms, cpuMicros: kept.cpuMicros + server.cpuMicros() - cpu, count: kept.count + PER_ROUND[kind] });
}

try {
  // A warm-up round of each, not kept.
  for (const version of VERSIONS) for (const kind of KINDS) await measure(version, kind);
  samples.clear();
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [...VERSIONS] : [...VERSIONS].reverse();
    for (const kind of KINDS) for (const version of order) await measure(version, kind);
    process.stdout.write(`round ${r + 1}/${ROUNDS} done\n`);
  }
} finally {
  await Promise.all(Object.values(servers).map(({ server }) => server.stop()));
}

const rows = [...samples].map(([key, { ms, cpuMicros, count }]) => {
  const [kind, version] = key.split('|') as [Kind, Version];
  return { kind, version, count, p50Ms: round(median(ms), 3), p90Ms: round(percentile(ms, 90), 3), serverCpuMicrosPerRequest: round(cpuMicros / count, 1) };
});
rows.sort((a, b) => a.kind.localeCompare(b.kind) || VERSIONS.indexOf(a.version) - VERSIONS.indexOf(b.version));
const lines = ['| Request | Build | n | p50 ms | p90 ms | server CPU µs per request |', '|---|---|---:|---:|---:|---:|'];
for (const row of rows) lines.push(`| ${row.kind} | ${row.version} | ${row.count} | ${row.p50Ms} | ${row.p90Ms} | ${row.serverCpuMicrosPerRequest} |`);
process.stdout.write(`\n${lines.join('\n')}\n`);
mkdirSync(`${repositoryRoot}bench/results`, { recursive: true });
writeFileSync(
  `${repositoryRoot}bench/results/account-cost.json`,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, before: options.before, rounds: ROUNDS, rows }, null, 2)}\n`,
);

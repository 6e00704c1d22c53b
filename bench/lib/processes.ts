import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root, where commands run. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How `pnpm start` runs the built server of the checkout at `root` (`node <flags>
 * packages/app/dist/main.js`), read from its root package.json, so the benchmarks measure inkwell
 * as it is started, V8 flags included. The entry point is absolute when `root` is another checkout.
 */
export function startArgs(root: string = repositoryRoot): readonly string[] {
  const start = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start;
  // `exec "$(node -p process.execPath)" …` (the shell execs the node binary), or `node …` in older checkouts.
  const command = /(?:\bnode|"\$\(node -p process\.execPath\)") ((?:--\S+ )*)packages\/app\/dist\/main\.js/.exec(start);
  if (!command) throw new Error(`${root}/package.json's start script does not run node … packages/app/dist/main.js: ${start}`);
  const entry = root === repositoryRoot ? 'packages/app/dist/main.js' : `${root}/packages/app/dist/main.js`;
  return [...(command[1] as string).split(' ').filter(Boolean), entry];
}

/** How `pnpm start` runs this checkout's built server. */
export const inkwellArgs: readonly string[] = startArgs();

/** The JWT secret the benchmarks start inkwell with; the baseline verifies tokens with it too. */
export const BENCH_JWT_SECRET = 'bench-secret-0123456789abcdef-0123456789abcdef';

/** The environment the benchmarks start inkwell with: the memory store, in production mode. */
export function inkwellEnv(logLevel = 'info', postsAccess = 'open'): Record<string, string> {
  // No drain at the stop: nothing measured runs then. The write budget counts every post write,
  // as in production, but never refuses one: a bench sends hundreds of thousands from one address.
  return {
    DB_URL: 'memory:',
    JWT_SECRET: BENCH_JWT_SECRET,
    NODE_ENV: 'production',
    LOG_LEVEL: logLevel,
    POSTS_ACCESS: postsAccess,
    SHUTDOWN_DRAIN_SECONDS: '0',
    POST_WRITES_MAX_PER_ADDRESS: BENCH_POST_WRITES,
  };
}

/** A write budget no bench runs out of (the setting's largest value). */
export const BENCH_POST_WRITES = '999999999';

/** The servers inkwell is compared with, each a file in bench/servers/. */
export const COMPARED = {
  baseline: { name: 'baseline', file: 'node-http' },
  hono: { name: 'bare Hono', file: 'hono' },
  honoDocumented: { name: 'Hono as documented', file: 'hono-documented' },
  fastify: { name: 'Fastify', file: 'fastify' },
  express: { name: 'Express', file: 'express' },
} as const;

/** One of the servers inkwell is compared with. */
export type Compared = keyof typeof COMPARED;

/** The node arguments that start one of the compared servers on a dataset file (bench/servers/dataset.ts). */
export function comparedArgs(server: Compared, datasetPath: string): string[] {
  return ['--import', 'tsx', `bench/servers/${COMPARED[server].file}.ts`, datasetPath];
}

/** A server process under test. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Milliseconds from spawn to the first successful response. */
  readonly startMs: number;
  /** Resident and peak resident memory, in MB (10^6 bytes), from /proc. */
  memory(): Memory;
  /** CPU time the process (every thread) has used so far, in microseconds, from /proc. */
  cpuMicros(): number;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. Resolves with the exit code or signal. */
  stop(): Promise<number | string>;
}

/** How to start one server. */
export interface ServerSpec {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** CPUs for `taskset -c`, or undefined for no pinning. */
  readonly cpus?: string;
  /** A command that runs node, such as valgrind with its options (instead of `cpus`). */
  readonly launcher?: readonly string[];
  /** A path that answers 200 once the server is ready. */
  readonly readyPath: string;
  /** How long to wait for that answer (20 s). */
  readonly readyTimeoutMs?: number;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

// /proc/PID/stat counts CPU time in clock ticks; USER_HZ is 100 on every Linux that matters here.
const MICROS_PER_TICK = 1e6 / 100;

function readCpuMicros(pid: number): number {
  // Fields after the command name (which may contain spaces, hence the last ')'): utime is 14th, stime 15th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
}

/** A process's memory in MB (10^6 bytes): resident now, and the peak so far. */
export interface Memory {
  readonly rssMB: number;
  readonly peakRssMB: number;
}

function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  // /proc says "kB" and means KiB.
  const mb = (field: string) => (Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024) / 1e6;
  return { rssMB: mb('VmRSS'), peakRssMB: mb('VmHWM') };
}

/**
 * Spawns a server (stdout, where inkwell writes its JSON log lines, goes to /dev/null; stderr is
 * kept for a failure report) and polls `readyPath` every 2 ms until it answers 200.
 */
export async function startServer(spec: ServerSpec, port: number): Promise<ServerProcess> {
  const launcher = spec.launcher ?? (spec.cpus === undefined ? [] : ['taskset', '-c', spec.cpus]);
  const [command, ...args] = [...launcher, process.execPath, ...spec.args] as [string, ...string[]];
  const readyTimeoutMs = spec.readyTimeoutMs ?? 20_000;
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', ...spec.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exitedWith: number | string | undefined;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve((exitedWith = code ?? signal ?? 'unknown'))),
  );

  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exitedWith !== undefined) throw new Error(`${spec.name} exited (${exitedWith}) before answering:\n${stderr}`);
    if ((await getStatus(`${url}${spec.readyPath}`)) === 200) break;
    if (performance.now() - started > readyTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${spec.name} did not answer within ${readyTimeoutMs / 1000} s:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const startMs = performance.now() - started;
  const pid = child.pid as number;

  return {
    name: spec.name,
    pid,
    url,
    startMs,
    memory: () => readMemory(pid),
    cpuMicros: () => readCpuMicros(pid),
    async stop() {
      if (exitedWith !== undefined) return exitedWith;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

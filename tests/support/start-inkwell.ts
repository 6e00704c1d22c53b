import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SERVER_TIMEOUTS, type LingerBounds, type ServerTimeouts } from '@inkwell/adapters-http';
import { createInkwell, readConfig, startServer, type DeliveryTiming, type Inkwell, type RestartPolicy, type RunningServer, type Store, type WatchdogTimings } from '@inkwell/app';
import type { PasswordHasher } from '@inkwell/domain';
import {
  deliverDueMessages,
  fakePasswordHasher,
  manualClock,
  recordingMailSender,
  type Delivered,
  type ManualClock,
  type RecordingMailSender,
} from '@inkwell/domain/testing';
import { expect, vi } from 'vitest';
import { captureLogger, type CaptureLogger } from './capture-logger.js';
import { withFaults, type StoreFaults } from './faulty-store.js';
import { TEST_JWT_SECRET } from './fixtures.js';
import { capturedPino, type LogCapture } from './logs.js';
import { countingStore, type RepositoryCalls } from './stores.js';

// Every test that needs an inkwell to talk to starts it here, and says where it runs:
//
// - 'app': the app alone in this process, no socket: requests go through `app.request`. The
//   clock is manual, the hasher fake, the logger captures, and the store's methods can be made
//   to fail. Fastest; what the HTTP suites use in process.
// - 'process': a real HTTP server on 127.0.0.1 in this process, for what needs sockets (raw
//   requests, timeouts, lingering closes). Manual clock, fake hasher unless `hasher: 'real'`,
//   a counted store, inkwell's own pino logger writing into memory.
// - 'child': `main.ts` in a child process, as production runs it (a cluster with
//   `WEB_CONCURRENCY`): real clock, real bcrypt, the JSON log lines it prints.

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
// The app's entry file, run from source through tsx exactly as `pnpm dev` runs it: a file to
// execute in a child process, not a module this package imports.
const mainModule = fileURLToPath(new URL('packages/app/src/main.ts', `file://${repositoryRoot}`));
// The same start-up with a test's own timeouts (a single process, no signal handling).
const timedModule = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
// main.ts's process with a cluster restart policy or watchdog timings of the test's own.
const scaledModule = fileURLToPath(new URL('./cluster-child.ts', import.meta.url));

/**
 * The serving layer's setting this test run was given, which every server started here takes
 * (the `tests, fast path off` project sets FAST_PATH=off); none otherwise.
 */
export const SERVING_ENV: Env = process.env.FAST_PATH === undefined ? {} : { FAST_PATH: process.env.FAST_PATH };

/** Settings added to (or, for a child, making up) the server's environment. */
export type Env = Readonly<Record<string, string>>;

/** The app alone in this process over `store`, configured by `env` on top of the suite's signing secret. */
export interface InAppOptions {
  readonly in: 'app';
  readonly store: Store;
  readonly env?: Env;
}

/** A real server on a socket of 127.0.0.1 in this process over `store`, with `env` added to a test configuration. */
export interface InProcessOptions {
  readonly in: 'process';
  readonly store: Store;
  readonly env?: Env;
  /** Node's timeouts, shortened for tests that wait them out. */
  readonly timeouts?: Partial<ServerTimeouts>;
  /** The lingering close's bounds. */
  readonly linger?: Partial<LingerBounds>;
  /** `'real'` for the app's own bcrypt pool (timing and hash tests), or a hasher of the test's own; fake by default. */
  readonly hasher?: 'fake' | 'real' | PasswordHasher;
  /** A clock of the test's own; by default a manual one that stands still at the time the server started. */
  readonly clock?: ManualClock;
  /** How long `server.close()` lets requests in flight finish before it cuts them (10 s as in production by default). */
  readonly shutdownGraceMs?: number;
  /**
   * How long `server.close()` lets idle connections deliver a request still on their way: none by
   * default (production's second would make every test that closes a server a second longer;
   * tests/processes/drain-end.test.ts runs it in a process as production does).
   */
  readonly lastRequestsMs?: number;
}

/** Where a child process keeps its data: `DB_URL=memory:`, or a MongoDB (`DB_URL`, and `DB_DATABASE` when given). */
export type ChildStore = 'memory' | { readonly url: string; readonly database?: string };

/**
 * `main.ts` in a child process with exactly `env` (plus PATH, `PORT=0`, `HOST=127.0.0.1`,
 * `LOG_LEVEL=info` unless `env` says otherwise, and the store's settings).
 */
export interface InChildOptions {
  readonly in: 'child';
  readonly store?: ChildStore;
  readonly env?: Env;
  /**
   * `'serving'` (the default) resolves once it serves, with `WEB_CONCURRENCY=N` once all N
   * workers listen; `'spawned'` resolves at once, for tests of start-up, exit codes and signals.
   */
  readonly ready?: 'serving' | 'spawned';
  /** Node's timeouts instead of production's: the process is then one server (support/serve-child.ts), not main.ts. */
  readonly timeouts?: Partial<ServerTimeouts>;
  /** A `WEB_CONCURRENCY` cluster's restart policy instead of production's (support/cluster-child.ts). */
  readonly restartPolicy?: RestartPolicy;
  /** The event-loop watchdog's timings instead of production's, in every process (support/cluster-child.ts). */
  readonly watchdog?: WatchdogTimings;
  /** Mail delivery's timings (leases, renewals, polls) instead of production's, in every server process (support/cluster-child.ts). */
  readonly delivery?: Partial<DeliveryTiming>;
  /**
   * The process's scheduling priority (`os.setPriority`, 19 the lowest), which the workers it
   * forks inherit: a test that wedges it at 100% CPU leaves the other test files their cores.
   */
  readonly priority?: number;
  /**
   * How the process is started: `main.ts` from source through tsx (the default), or `pnpm start`
   * exactly as production documents it (a build, then the built server), for tests of what a
   * supervisor holding that PID sees. `pnpm` must be on PATH.
   */
  readonly command?: 'main.ts' | 'pnpm start';
}

/** Any way to start an inkwell under test. */
export type StartOptions = InAppOptions | InProcessOptions | InChildOptions;

/**
 * Mail of an app in this process, delivered when the test says: the app's own delivery loop does
 * not run, and `deliver()` runs one round of it (every message due, through `deliverMessage`) into
 * a sender that records what it is handed.
 */
export interface MailUnderTest {
  /** Every mail delivered so far, in order. */
  readonly sender: RecordingMailSender;
  /** Delivers every message due at the app's clock; answers what became of each. */
  deliver(): Promise<Delivered[]>;
}

/** An app in this process with the doubles a test steers; no socket. */
export interface AppUnderTest {
  readonly inkwell: Inkwell;
  readonly clock: ManualClock;
  readonly hasher: ReturnType<typeof fakePasswordHasher>;
  readonly logger: CaptureLogger;
  /** Make repository and limiter methods fail (500, 503 tests). */
  readonly faults: StoreFaults;
  /** Mail, delivered on demand; null when the configuration turns mail off. */
  readonly mail: MailUnderTest | null;
  close(): Promise<void>;
}

/**
 * A server the hardening suites drive over real sockets: a server in this process (which counts
 * repository calls) or in a child process.
 */
export interface ServedInkwell {
  readonly url: string;
  readonly port: number;
  /** The timeouts it runs with. */
  readonly timeouts: ServerTimeouts;
  /** Its JSON log lines so far (a child's lines reach stdout in batches, within 100 ms). */
  readonly log: LogCapture;
  /** Repository calls, when the server runs in this process. */
  readonly calls?: RepositoryCalls;
  /** `fetch` against the server with a JSON body (strings and bytes are sent as they are). */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** A real server on a socket in this process, with a manual clock, its hasher and counted repository calls. */
export interface InProcessServer extends ServedInkwell {
  readonly clock: ManualClock;
  readonly hasher: ReturnType<typeof fakePasswordHasher>;
  readonly calls: RepositoryCalls;
  readonly server: RunningServer;
}

/** A child process running `main.ts`, with its output collected line by line. */
export interface ChildRun {
  readonly process: ChildProcess;
  /** Every line written so far to stdout and stderr. */
  readonly lines: string[];
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first line matching `pattern`; rejects on exit or after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the base URL from the listening line. */
  listening(timeoutMs?: number): Promise<string>;
  /** SIGKILLs the process if it is still running, and waits for it. */
  kill(): Promise<void>;
}

/** A child process (or cluster) that serves. */
export interface ChildServer extends ServedInkwell {
  readonly child: ChildRun;
}

/** Where a hardening suite gets its server. */
export interface ServerTarget {
  readonly label: string;
  start(): Promise<ServedInkwell>;
}

/** Starts an inkwell under test where `options.in` says; see the options for what each place gives. */
export function startInkwell(options: InAppOptions): Promise<AppUnderTest>;
export function startInkwell(options: InProcessOptions): Promise<InProcessServer>;
export function startInkwell(options: InChildOptions & { ready: 'spawned' }): Promise<ChildRun>;
export function startInkwell(options: InChildOptions & { ready?: 'serving' }): Promise<ChildServer>;
export async function startInkwell(options: StartOptions): Promise<AppUnderTest | InProcessServer | ChildRun | ChildServer> {
  switch (options.in) {
    case 'app':
      return startApp(options);
    case 'process':
      return startInProcess(options);
    case 'child': {
      const child = spawnChild(options);
      return options.ready === 'spawned' ? child : serveFromChild(child, options.env?.WEB_CONCURRENCY);
    }
  }
}

async function startApp({ store: realStore, env = {} }: InAppOptions): Promise<AppUnderTest> {
  const { store, faults } = withFaults(realStore);
  const clock = manualClock();
  const hasher = fakePasswordHasher();
  const logger = captureLogger();
  const mailer = recordingMailSender();
  const inkwell = await createInkwell(readConfig({ ...env, DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET }), logger, {
    store,
    clock,
    hasher,
    mailer,
  });
  return { inkwell, clock, hasher, logger, faults, mail: mailOnDemand(inkwell, store, clock, mailer), close: () => inkwell.close() };
}

/** The app's mail with its loop stopped, delivered by the test into `sender`; null when mail is off. */
export function mailOnDemand(inkwell: Inkwell, store: Store, clock: ManualClock, sender: RecordingMailSender): MailUnderTest | null {
  const running = inkwell.mail;
  if (running === null) return null;
  running.loop.stopClaiming();
  const deps = { users: store.users, clock, outbox: store.outbox, mailer: sender, mailRules: running.mailRules, mailLimits: running.mailLimits };
  return { sender, deliver: () => deliverDueMessages(deps) };
}

async function startInProcess({
  store,
  env = {},
  timeouts,
  linger,
  hasher: which,
  clock = manualClock(Date.now()),
  shutdownGraceMs,
  lastRequestsMs = 0,
}: InProcessOptions): Promise<InProcessServer> {
  const hasher = fakePasswordHasher();
  const counted = countingStore(store);
  const { logger, capture } = capturedPino();
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DB_URL: 'memory:',
    JWT_SECRET: TEST_JWT_SECRET,
    NODE_ENV: 'test',
    HASH_WORKERS: '1',
    ...SERVING_ENV,
    ...env,
  });
  const server = await startServer(config, logger, {
    timeouts,
    linger,
    shutdownGraceMs,
    lastRequestsMs,
    overrides: { store: counted.store, clock, ...(which === 'real' ? {} : { hasher: typeof which === 'object' ? which : hasher }) },
  });
  return {
    url: server.url,
    port: server.port,
    timeouts: { ...DEFAULT_SERVER_TIMEOUTS, keepAliveMs: config.keepAliveTimeoutSeconds * 1000, ...timeouts },
    clock,
    hasher,
    calls: counted.calls,
    log: capture,
    server,
    send: jsonSender(server.url),
    close: () => server.close(),
  };
}

/** `fetch` against `url` with a JSON body; strings and bytes are sent as they are. */
function jsonSender(url: string): ServedInkwell['send'] {
  return (method, path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    });
}

/** The environment variables that name a child's store. */
function storeEnv(store: ChildStore | undefined): Record<string, string> {
  if (store === undefined) return {};
  if (store === 'memory') return { DB_URL: 'memory:' };
  return store.database === undefined ? { DB_URL: store.url } : { DB_URL: store.url, DB_DATABASE: store.database };
}

function spawnChild({ store, env = {}, timeouts, restartPolicy, watchdog, delivery, priority, command = 'main.ts' }: InChildOptions): ChildRun {
  const timed = timeouts === undefined ? {} : { INKWELL_TEST_TIMEOUTS: JSON.stringify(timeouts) };
  const restarts = restartPolicy === undefined ? {} : { INKWELL_TEST_RESTART_POLICY: JSON.stringify(restartPolicy) };
  const watched = watchdog === undefined ? {} : { INKWELL_TEST_WATCHDOG: JSON.stringify(watchdog) };
  const delivering = delivery === undefined ? {} : { INKWELL_TEST_DELIVERY: JSON.stringify(delivery) };
  const scaled = restartPolicy !== undefined || watchdog !== undefined || delivery !== undefined;
  const module = timeouts !== undefined ? timedModule : scaled ? scaledModule : mainModule;
  const pnpmStart = command === 'pnpm start';
  // A supervisor's PATH, for pnpm start: without the node_modules/.bin folders that pnpm put in
  // front of this test run's, whose `node` (a shell script) would otherwise run pnpm itself and
  // stand between the test and pnpm's PID. pnpm reads its own settings from the home folder.
  const path = pnpmStart ? supervisorPath() : (process.env.PATH ?? '');
  const home = pnpmStart && process.env.HOME !== undefined ? { HOME: process.env.HOME } : {};
  const [file, args] = pnpmStart ? ['pnpm', ['start']] : [process.execPath, ['--conditions=source', '--import', 'tsx', module]];
  const child = spawn(file, args, {
    cwd: repositoryRoot,
    env: { PATH: path, ...home, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...storeEnv(store), ...SERVING_ENV, ...env, ...timed, ...restarts, ...watched, ...delivering },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Before the process has loaded anything, so before a cluster's primary forks.
  if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, priority);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
      for (const wake of waiters) wake();
    });
  };
  collect(child.stdout as NodeJS.ReadableStream);
  collect(child.stderr as NodeJS.ReadableStream);

  let hasExited = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      hasExited = true;
      for (const wake of waiters) wake();
      resolve(code ?? signal ?? 'unknown');
    }),
  );

  // A cluster's start on a loaded 2-core machine took more than 20 s; waiting longer costs only a failing test.
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((line) => pattern.test(line));
        if (found !== undefined) return done(() => resolve(found));
        if (hasExited) done(() => reject(new Error(`inkwell exited before printing ${pattern}:\n${lines.join('\n')}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  return {
    process: child,
    lines,
    exited,
    waitForLine,
    async listening(timeoutMs) {
      const line = await waitForLine(/inkwell listening on http:\/\/\S+/, timeoutMs);
      return (/inkwell listening on (http:\/\/[^\s"]+)/.exec(line) as RegExpExecArray)[1] as string;
    },
    async kill() {
      if (!hasExited) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** This run's PATH without the node_modules/.bin folders a package manager put in front: what a supervisor starting `pnpm start` has. */
export function supervisorPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((folder) => !/node_modules[\\/]\.bin$/.test(folder))
    .join(delimiter);
}

/** The JSON records among a child's lines (the ones it prints before its logger exists are plain text). */
export function jsonRecords(lines: readonly string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** Resolves once `child` serves: once all `workers` (`WEB_CONCURRENCY`, 1 by default) listen, so the primary hands connections to each. */
async function serveFromChild(child: ChildRun, workers = '1'): Promise<ChildServer> {
  const url = await child.listening();
  const listening = () => child.lines.filter((line) => line.includes('inkwell listening on')).length;
  await vi.waitFor(() => expect(listening()).toBe(Number(workers)), { timeout: 30_000, interval: 50 });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    log: { lines: child.lines, records: () => jsonRecords(child.lines) },
    timeouts: DEFAULT_SERVER_TIMEOUTS,
    send: jsonSender(url),
    close: () => child.kill(),
  };
}

import nodeCluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { closeUnansweredHandoffs } from './cluster-handoffs.js';
import { MEMORY_DB_URL, type Config } from './config.js';

/** How long the primary waits, past its workers' drain, for them to finish in-flight requests (10 s) and stop. */
const WORKERS_STOP_MARGIN_MS = 15_000;

/**
 * When the primary replaces a worker that died after the first start: after a delay that starts
 * at `firstDelayMs` and doubles with each death of a streak, up to `maxDelayMs`. A streak ends
 * when `windowMs` pass without a death. More than `crashLoopDeaths` deaths within `windowMs` is
 * a crash loop, logged as an error once per streak.
 */
export interface RestartPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly windowMs: number;
  readonly crashLoopDeaths: number;
}

/** Production's policy: 1 s, doubling up to 30 s; more than 10 deaths in 60 s is a crash loop. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 1000, maxDelayMs: 30_000, windowMs: 60_000, crashLoopDeaths: 10 };

/** What the primary decides about one death: how long before its replacement, and whether to report a crash loop now. */
export interface DeathVerdict {
  readonly restartInMs: number;
  /** Deaths within the policy's window, this one included. */
  readonly recentDeaths: number;
  /** True for the death that makes the streak a crash loop (once per streak). */
  readonly crashLoop: boolean;
}

/** The deaths of a cluster's workers, and the restart policy applied to them. */
export function workerDeaths(policy: RestartPolicy = DEFAULT_RESTART_POLICY): { record(now: number): DeathVerdict } {
  let recent: number[] = [];
  let streak = 0;
  let reported = false;
  return {
    record(now) {
      const last = recent.at(-1);
      if (last === undefined || now - last > policy.windowMs) {
        streak = 0;
        reported = false;
      }
      streak++;
      recent = [...recent.filter((at) => now - at < policy.windowMs), now];
      const crashLoop = !reported && recent.length > policy.crashLoopDeaths;
      if (crashLoop) reported = true;
      const restartInMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(streak - 1, 30));
      return { restartInMs, recentDeaths: recent.length, crashLoop };
    },
  };
}

/**
 * Why `config` cannot run as a cluster, or null when it can. Every process would hold its own
 * in-memory store, so clients would see different data depending on the connection.
 */
export function clusterRefusal(config: Config): string | null {
  if (config.webConcurrency > 1 && config.dbUrl === MEMORY_DB_URL)
    return `WEB_CONCURRENCY=${config.webConcurrency} needs the MongoDB store: with DB_URL=${MEMORY_DB_URL} each process would keep its own data (unset WEB_CONCURRENCY or set DB_URL to MongoDB)`;
  return null;
}

/** Whether this process should fork workers instead of serving itself. */
export function isClusterPrimary(config: Config): boolean {
  return config.webConcurrency > 1 && nodeCluster.isPrimary;
}

/** Whether this process is one of a cluster's workers (its primary already said what is said once). */
export function isClusterWorker(): boolean {
  return nodeCluster.isWorker;
}

/** What the primary uses of node:cluster and of its own process; tests pass stand-ins. */
export interface PrimaryHost {
  readonly cluster: {
    fork(): Worker;
    on(event: 'listening', listener: (worker: Worker) => void): unknown;
    on(event: 'exit', listener: (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  };
  exit(code: number): void;
  now(): number;
}

const nodeHost: PrimaryHost = {
  cluster: {
    fork: () => {
      const worker = nodeCluster.fork();
      closeUnansweredHandoffs(worker);
      return worker;
    },
    on: nodeCluster.on.bind(nodeCluster),
  },
  exit: (code) => process.exit(code),
  now: () => Date.now(),
};

/**
 * The primary of a `WEB_CONCURRENCY` cluster: forks that many workers (each runs main.ts as a
 * server; they share the port, node:cluster hands out connections in turn) and supervises them.
 * A worker of the first start that exits before it listens aborts the start (exit 1, like a
 * single process would). Every later death, whatever its cause and whether or not the database
 * is up, is replaced after the restart policy's delay, while the other workers keep serving: the
 * primary never stops by itself after the first start. `stop(signal)` (main.ts calls it on
 * SIGTERM and SIGINT) passes the signal on to every worker, which drains and stops, and the
 * primary exits once all have stopped: 0 when every one stopped cleanly.
 */
export function runClusterPrimary(
  config: Config,
  logger: Logger,
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  host: PrimaryHost = nodeHost,
): { stop(signal: NodeJS.Signals): void } {
  const { cluster } = host;
  // Tracked here rather than read from cluster.workers, whose removal order around 'exit' is unspecified.
  const live = new Set<Worker>();
  const listening = new Set<Worker>();
  const replacements = new Set<NodeJS.Timeout>();
  const deaths = workerDeaths(policy);
  let started = false;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    live.add(worker);
    return worker;
  };
  cluster.on('listening', (worker) => {
    listening.add(worker);
    if (!started && listening.size === config.webConcurrency) started = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    const wasListening = listening.delete(worker);
    const pid = worker.process.pid;
    const fields = { workerPid: pid, code, signal };
    if (stopping) {
      if (code !== 0) exitCode = 1;
      logger.info(fields, `worker ${pid} exited with code ${code ?? signal}`);
      if (live.size === 0) host.exit(exitCode);
    } else if (!started && !wasListening) {
      logger.fatal(fields, `inkwell: worker ${pid} could not start: stopping the cluster`);
      stop('SIGTERM', 1);
    } else {
      const { restartInMs, recentDeaths, crashLoop } = deaths.record(host.now());
      logger.warn({ ...fields, restartInMs }, `worker ${pid} died (${code ?? signal}): replacing it in ${restartInMs / 1000} s`);
      if (crashLoop)
        logger.error(
          { recentDeaths, windowMs: policy.windowMs },
          `workers keep dying: ${recentDeaths} deaths in ${policy.windowMs / 1000} s; each is replaced after up to ${policy.maxDelayMs / 1000} s`,
        );
      const replacement = setTimeout(() => {
        replacements.delete(replacement);
        const { pid: newPid } = fork().process;
        logger.info({ workerPid: newPid, replacedPid: pid }, `worker ${newPid} started, replacing ${pid}`);
      }, restartInMs);
      replacements.add(replacement);
    }
  });

  const stop = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const replacement of replacements) clearTimeout(replacement);
    logger.info({ signal }, `shutting down: stopping ${live.size} workers`);
    if (live.size === 0) host.exit(exitCode);
    for (const worker of live) worker.process.kill(signal);
    setTimeout(() => {
      logger.error('workers did not stop in time: killing them');
      for (const worker of live) worker.process.kill('SIGKILL');
      host.exit(1);
    }, config.shutdownDrainSeconds * 1000 + WORKERS_STOP_MARGIN_MS).unref();
  };

  logger.info({ workers: config.webConcurrency }, `starting ${config.webConcurrency} worker processes`);
  for (let i = 0; i < config.webConcurrency; i++) fork();
  return { stop: (signal) => stop(signal) };
}

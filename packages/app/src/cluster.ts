import nodeCluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { closeUnansweredHandoffs } from './cluster-handoffs.js';
import { MEMORY_DB_URL, type Config } from './config.js';

/** How long the primary waits, past its workers' drain, for them to answer the requests still on their way (1 s), finish those in flight (10 s) and stop. */
const WORKERS_STOP_MARGIN_MS = 15_000;

/**
 * When the primary replaces a worker that died after the first start, counted for each worker
 * slot on its own: after a delay that starts at `firstDelayMs` and doubles with each death of the
 * slot's streak, up to `maxDelayMs`. A streak ends when a worker of the slot has served (listened)
 * for `servedMs` before it dies: its replacement is then due after `firstDelayMs` again.
 * `crashLoopDeaths` deaths in one streak (the slot's workers dying without serving `servedMs` in
 * between) are a crash loop, logged as an error once per streak.
 */
export interface RestartPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly servedMs: number;
  readonly crashLoopDeaths: number;
}

/**
 * Production's policy: 1 s, doubling up to 30 s; a worker that served a minute starts its slot
 * afresh; 5 deaths of a slot in a row without a minute of serving (some 15 s of a slot failing
 * at once) is a crash loop.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstDelayMs: 1000, maxDelayMs: 30_000, servedMs: 60_000, crashLoopDeaths: 5 };

/** What the primary decides about one death: how long before its replacement, and whether to report a crash loop now. */
export interface DeathVerdict {
  readonly restartInMs: number;
  /** Deaths of the slot's streak, this one included. */
  readonly deathsInRow: number;
  /** True for the death that makes the streak a crash loop (once per streak). */
  readonly crashLoop: boolean;
}

/** The deaths of one worker slot, and the restart policy applied to them. */
export interface SlotDeaths {
  /** The slot's current worker listens from `now`. */
  listening(now: number): void;
  /** The slot's current worker died at `now`. */
  died(now: number): DeathVerdict;
}

/** A worker slot's deaths under `policy`: its streak grows with each death, and ends when a worker of it served `servedMs`. */
export function slotDeaths(policy: RestartPolicy = DEFAULT_RESTART_POLICY): SlotDeaths {
  let listeningSince: number | undefined;
  let streak = 0;
  let reported = false;
  return {
    listening(now) {
      listeningSince = now;
    },
    died(now) {
      const served = listeningSince !== undefined && now - listeningSince >= policy.servedMs;
      listeningSince = undefined;
      if (served) {
        streak = 0;
        reported = false;
      }
      streak++;
      const crashLoop = !reported && streak >= policy.crashLoopDeaths;
      if (crashLoop) reported = true;
      const restartInMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(streak - 1, 30));
      return { restartInMs, deathsInRow: streak, crashLoop };
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
 * The primary of a `WEB_CONCURRENCY` cluster: forks that many workers, one per slot (each runs
 * main.ts as a server; they share the port, node:cluster hands out connections in turn) and
 * supervises them. A worker of the first start that exits before it listens aborts the start
 * (exit 1, like a single process would). Every later death, whatever its cause and whether or not
 * the database is up, is replaced after its slot's delay under the restart policy, while the other
 * workers keep serving: one slot's deaths never delay another's replacement, and the primary never
 * stops by itself after the first start. `stop(signal)` (main.ts calls it on SIGTERM and SIGINT)
 * passes the signal on to every worker, which drains and stops, and the primary exits once all
 * have stopped: 0 when every one stopped cleanly.
 */
export function runClusterPrimary(
  config: Config,
  logger: Logger,
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  host: PrimaryHost = nodeHost,
): { stop(signal: NodeJS.Signals): void } {
  const { cluster } = host;
  // Tracked here rather than read from cluster.workers, whose removal order around 'exit' is unspecified.
  const slotOf = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const replacements = new Set<NodeJS.Timeout>();
  const slots = Array.from({ length: config.webConcurrency }, () => slotDeaths(policy));
  let started = false;
  let stopping = false;
  let exitCode = 0;

  const fork = (slot: number) => {
    const worker = cluster.fork();
    slotOf.set(worker, slot);
    return worker;
  };
  cluster.on('listening', (worker) => {
    listening.add(worker);
    const slot = slotOf.get(worker);
    if (slot !== undefined) slots[slot]?.listening(host.now());
    if (!started && listening.size === config.webConcurrency) started = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    const slot = slotOf.get(worker) ?? 0;
    slotOf.delete(worker);
    const wasListening = listening.delete(worker);
    const pid = worker.process.pid;
    const fields = { workerPid: pid, slot, code, signal };
    if (stopping) {
      if (code !== 0) exitCode = 1;
      logger.info(fields, `worker ${pid} exited with code ${code ?? signal}`);
      if (slotOf.size === 0) host.exit(exitCode);
    } else if (!started && !wasListening) {
      logger.fatal(fields, `inkwell: worker ${pid} could not start: stopping the cluster`);
      stop('SIGTERM', 1);
    } else {
      const { restartInMs, deathsInRow, crashLoop } = (slots[slot] as SlotDeaths).died(host.now());
      logger.warn({ ...fields, restartInMs }, `worker ${pid} died (${code ?? signal}): replacing it in ${restartInMs / 1000} s`);
      if (crashLoop)
        logger.error(
          { slot, deathsInRow, servedMs: policy.servedMs },
          `worker slot ${slot} keeps dying: ${deathsInRow} deaths in a row, none after serving ${policy.servedMs / 1000} s; ` +
            `it is still replaced, after up to ${policy.maxDelayMs / 1000} s each time`,
        );
      const replacement = setTimeout(() => {
        replacements.delete(replacement);
        const { pid: newPid } = fork(slot).process;
        logger.info({ workerPid: newPid, replacedPid: pid, slot }, `worker ${newPid} started, replacing ${pid}`);
      }, restartInMs);
      replacements.add(replacement);
    }
  });

  const stop = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const replacement of replacements) clearTimeout(replacement);
    logger.info({ signal }, `shutting down: stopping ${slotOf.size} workers`);
    if (slotOf.size === 0) host.exit(exitCode);
    for (const worker of slotOf.keys()) worker.process.kill(signal);
    setTimeout(() => {
      logger.error('workers did not stop in time: killing them');
      for (const worker of slotOf.keys()) worker.process.kill('SIGKILL');
      host.exit(1);
    }, config.shutdownDrainSeconds * 1000 + WORKERS_STOP_MARGIN_MS).unref();
  };

  logger.info({ workers: config.webConcurrency }, `starting ${config.webConcurrency} worker processes`);
  for (let slot = 0; slot < config.webConcurrency; slot++) fork(slot);
  return { stop: (signal) => stop(signal) };
}

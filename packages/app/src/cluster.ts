import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { MEMORY_DB_URL, type Config } from './config.js';

/** How long the primary waits for its workers to finish their own graceful stop before killing them. */
const WORKERS_STOP_TIMEOUT_MS = 15_000;

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
  return config.webConcurrency > 1 && cluster.isPrimary;
}

/** Whether this process is one of a cluster's workers (its primary already said what is said once). */
export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/**
 * The primary of a `WEB_CONCURRENCY` cluster: forks that many workers (each runs main.ts as a
 * server; they share the port, node:cluster hands out connections in turn) and supervises them.
 * A worker that exits before it listens aborts the whole start (exit 1, like a single process
 * would); one that dies later is replaced. `stop(signal)` (main.ts calls it on SIGTERM and SIGINT)
 * passes the signal on to every worker, and the primary exits once all have stopped: 0 when
 * every one stopped cleanly.
 */
export function runClusterPrimary(config: Config, logger: Logger): { stop(signal: NodeJS.Signals): void } {
  // Tracked here rather than read from cluster.workers, whose removal order around 'exit' is unspecified.
  const live = new Set<Worker>();
  const listening = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;

  const fork = () => live.add(cluster.fork());
  cluster.on('listening', (worker) => listening.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    const wasListening = listening.delete(worker);
    const pid = worker.process.pid;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      logger.info({ workerPid: pid, code, signal }, `worker ${pid} exited with code ${code ?? signal}`);
      if (live.size === 0) process.exit(exitCode);
    } else if (!wasListening) {
      logger.fatal({ workerPid: pid, code, signal }, `inkwell: worker ${pid} could not start: stopping the cluster`);
      stop('SIGTERM', 1);
    } else {
      logger.error({ workerPid: pid, code, signal }, `worker ${pid} died (${code ?? signal}): starting a replacement`);
      fork();
    }
  });

  const stop = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ signal }, `shutting down: stopping ${live.size} workers`);
    if (live.size === 0) process.exit(exitCode);
    for (const worker of live) worker.process.kill(signal);
    setTimeout(() => {
      logger.error('workers did not stop in time: killing them');
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }, WORKERS_STOP_TIMEOUT_MS).unref();
  };

  logger.info({ workers: config.webConcurrency }, `starting ${config.webConcurrency} worker processes`);
  for (let i = 0; i < config.webConcurrency; i++) fork();
  return { stop: (signal) => stop(signal) };
}

import { clusterRefusal, DEFAULT_RESTART_POLICY, isClusterPrimary, isClusterWorker, runClusterPrimary, type RestartPolicy } from './cluster.js';
import { ConfigError, MAIL_OFF, MEMORY_DB_URL, readConfig } from './config.js';
import { watchEventLoop, type WatchdogTimings } from './event-loop-watchdog.js';
import { exitOnUncaughtErrors } from './fatal-errors.js';
import { createLogger } from './logger.js';
import type { DeliveryTiming } from './mail-delivery.js';
import { startServer } from './server.js';
import { stopOnSignals } from './shutdown.js';

/** What tests may change about a process; production passes nothing. */
export interface ProcessOptions {
  /** How a cluster's primary replaces workers that die. */
  readonly restartPolicy?: RestartPolicy;
  /** When the event-loop watchdog of every process (a cluster's primary and workers alike) acts. */
  readonly watchdog?: WatchdogTimings;
  /** How each server process delivers mail: its leases, renewals and polls. */
  readonly delivery?: Partial<DeliveryTiming>;
}

/**
 * Runs the process that main.ts started: the only place that reads `process.env` or handles
 * signals (for a cluster's primary too). Every process, primary or server, logs a fatal error as
 * one JSON line and exits 1, and has an event-loop watchdog; a server drains before it stops.
 */
export async function runProcess(options: ProcessOptions = {}): Promise<void> {
  let config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`inkwell: refusing to start: ${error.message}`);
    process.exit(1);
  }

  const refusal = clusterRefusal(config);
  if (refusal !== null) {
    console.error(`inkwell: refusing to start: ${refusal}`);
    process.exit(1);
  }

  // In a cluster every line names the process that wrote it.
  const logger = createLogger(config.logLevel, undefined, config.webConcurrency > 1 ? { pid: process.pid } : {}, config.secrets);
  exitOnUncaughtErrors(logger);
  watchEventLoop(logger, options.watchdog);
  if (!isClusterWorker()) {
    for (const warning of config.warnings) logger.warn(warning);
    if (config.dbUrl === MEMORY_DB_URL)
      logger.warn('store: memory. Data is kept in memory only and is lost when the process stops.');
    if (config.mail === null) logger.warn(MAIL_OFF);
    else if (config.mail.transport.kind === 'log') logger.info('mail: log: (MAIL_URL). Every mail is written to this log as one JSON line, its link included.');
  }
  if (isClusterPrimary(config)) {
    const primary = runClusterPrimary(config, logger, options.restartPolicy ?? DEFAULT_RESTART_POLICY);
    process.on('SIGTERM', primary.stop);
    process.on('SIGINT', primary.stop);
    return;
  }

  let server;
  try {
    server = await startServer(config, logger, options.delivery === undefined ? {} : { overrides: { delivery: options.delivery } });
  } catch (error) {
    logger.fatal(`inkwell: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  stopOnSignals(server, config.shutdownDrainSeconds, logger);
}

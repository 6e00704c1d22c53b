import { clusterRefusal, isClusterPrimary, isClusterWorker, runClusterPrimary } from './cluster.js';
import { ConfigError, MAIL_OFF, MEMORY_DB_URL, readConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

/**
 * Runs the process that main.ts started: the only place that reads `process.env` or handles
 * signals (for a cluster's primary too).
 */
export async function runProcess(): Promise<void> {
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
  const logger =
    config.webConcurrency > 1 ? createLogger(config.logLevel).child({ pid: process.pid }) : createLogger(config.logLevel);
  if (!isClusterWorker()) {
    for (const warning of config.warnings) logger.warn(warning);
    if (config.dbUrl === MEMORY_DB_URL)
      logger.warn('store: memory. Data is kept in memory only and is lost when the process stops.');
    if (config.mail === null) logger.warn(MAIL_OFF);
    else if (config.mail.transport.kind === 'log') logger.info('mail: log: (MAIL_URL). Every mail is written to this log as one JSON line, its link included.');
  }
  if (isClusterPrimary(config)) {
    const primary = runClusterPrimary(config, logger);
    process.on('SIGTERM', primary.stop);
    process.on('SIGINT', primary.stop);
    return;
  }

  let server;
  try {
    server = await startServer(config, logger);
  } catch (error) {
    logger.fatal(`inkwell: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  // Idempotent, and left installed: a cluster worker can get a signal from its primary and from
  // the terminal's process group, and the second must not kill it mid-drain.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

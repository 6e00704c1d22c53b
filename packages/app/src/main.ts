import { ConfigError, MEMORY_DB_URL, readConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

/** The process entry: the only place that reads `process.env` or handles signals. */
async function main(): Promise<void> {
  let config;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`inkwell: refusing to start: ${error.message}`);
    process.exit(1);
  }

  const logger = createLogger(config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  if (config.dbUrl === MEMORY_DB_URL)
    logger.warn('store: memory. Data is kept in memory only and is lost when the process stops.');

  let server;
  try {
    server = await startServer(config, logger);
  } catch (error) {
    logger.fatal(`inkwell: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  const shutdown = (signal: NodeJS.Signals) => {
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
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

await main();

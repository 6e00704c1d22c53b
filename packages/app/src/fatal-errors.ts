import type { Logger } from 'pino';

/**
 * Ends the process on an unhandled rejection or an uncaught exception the way inkwell reports
 * every other fatal failure: one fatal JSON line through `logger` (so its redaction keeps secrets
 * out of it), then exit 1, rather than Node's plain stack trace. Its supervisor (the cluster's
 * primary, or the platform) starts a fresh process.
 */
export function exitOnUncaughtErrors(logger: Logger): void {
  const fatal = (what: string) => (error: unknown) => {
    logger.fatal({ err: error }, `${what}: exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
}

import type { Logger } from '@inkwell/adapters-http';
import type { Logger as PinoLogger } from 'pino';

/** logger.ts's redaction paths that name a top-level field. */
const TOP_LEVEL_SECRETS = ['password', 'passwordHash', 'token', 'authorization', 'headers.authorization'];

/**
 * The logger for the line written on every request (adapters-http's accessLog). logger.ts also
 * redacts nested paths (`*.password`), and pino runs those wildcard paths over every field of
 * every line, numbers and strings included: measured at about a third of the cost of the whole
 * access line (issue 6). That line holds only plain top-level fields (id, method, path, status,
 * duration), so no nested path can ever match in it; its child logger keeps the top-level names
 * redacted and shares everything else (level, destination, the URL-password hook) with `logger`.
 * A logger that is not pino (a test's capture logger) is used as it is.
 */
export function accessLoggerFor(logger: Logger): Logger {
  const child = (logger as Partial<Pick<PinoLogger, 'child'>>).child;
  if (typeof child !== 'function') return logger;
  return child.call(logger, {}, { redact: { paths: TOP_LEVEL_SECRETS, censor: '[redacted]' } });
}

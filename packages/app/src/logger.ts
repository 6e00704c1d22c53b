import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * `scheme://user:password@` in any text: what a database URL with credentials looks like
 * inside a log line, for instance quoted in a driver's error message.
 */
// The password runs to the last `@` before the host (an unescaped `@` in a password is a common mistake).
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"]*):[^\s/"]*@/gi;

/** The log line with the password of every URL in it replaced by `***`. */
export function redactUrlPasswords(line: string): string {
  // Every match contains "://", and most lines (every access line) have none: they skip the regex.
  return line.includes('://') ? line.replace(URL_PASSWORD, '$1:***@') : line;
}

/**
 * inkwell's structured JSON logger. Secrets are redacted by path as a second line of defence:
 * no code path logs them on purpose. As a last one, every finished line passes through
 * `redactUrlPasswords`, so `DB_URL`'s password cannot reach the output by any path.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inkwell' },
      redact: {
        paths: [
          'password',
          '*.password',
          'passwordHash',
          '*.passwordHash',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
        ],
        censor: '[redacted]',
      },
      hooks: { streamWrite: redactUrlPasswords },
    },
    destination ?? standardOutput(),
  );
}

/** How many bytes of log lines may wait for stdout before new lines are dropped (sonic-boom's `maxLength`). */
export const MAX_PENDING_LOG_BYTES = 8 * 1024 * 1024;

/**
 * stdout, written asynchronously: a line is handed to the OS as soon as no other write is in
 * flight, and lines logged meanwhile go out together in the next write. Writing every line with
 * its own synchronous syscall, as before, was about a tenth of the CPU time of a small GET
 * (issue 6). pino flushes what is pending synchronously on `process.exit` and on an uncaught
 * exception, so only a hard kill can lose lines; lines keep their order. If stdout stops
 * draining, at most MAX_PENDING_LOG_BYTES wait in memory and newer lines are dropped.
 */
function standardOutput(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 0, maxLength: MAX_PENDING_LOG_BYTES });
}

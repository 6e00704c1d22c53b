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

/**
 * Linux's PIPE_BUF: a pipe never splits or interleaves a write of at most this many bytes, so
 * when processes share stdout (the workers of WEB_CONCURRENCY) each one's lines stay whole.
 */
const PIPE_BUF = 4096;

/** How long a line may wait for others to share its write. */
const FLUSH_AFTER_MS = 100;

let stdout: DestinationStream | undefined;

/**
 * stdout, one per process, written in batches of whole lines: a write goes out once three
 * quarters of PIPE_BUF are waiting (never more than PIPE_BUF, unless one line is longer), and
 * what is left FLUSH_AFTER_MS later. Every line had its own `write` syscall before, about a
 * tenth of the CPU time of a small GET (issue 6). The writes are synchronous, as pino's default
 * is, so none is ever in flight: an asynchronous writer lost the batch it was writing when the
 * process ended while stdout was full (tested). What waits is written when the process exits,
 * uncaught exceptions included. A log reader that stops reading holds the server up rather than
 * losing lines.
 */
function standardOutput(): DestinationStream {
  if (stdout) return stdout;
  const stream = pino.destination({ dest: 1, sync: true, minLength: (PIPE_BUF * 3) / 4, maxWrite: PIPE_BUF });
  let flushTimer: NodeJS.Timeout | undefined;
  const flushWaiting = () => {
    flushTimer = undefined;
    stream.flush();
  };
  process.once('exit', () => {
    try {
      // Looked up now: pino makes it a no-op once stdout is closed (EPIPE).
      stream.flushSync();
    } catch {
      // stdout is gone (or the stream already ended) as the process ends: nowhere to report it.
    }
  });
  const destination = {
    write(line: string) {
      stream.write(line);
      // Only while lines come: an idle server sets no timer and makes no write.
      flushTimer ??= setTimeout(flushWaiting, FLUSH_AFTER_MS).unref();
    },
    // For pino's `logger.flush(cb)`, which would otherwise call back without writing anything.
    // sonic-boom fsyncs once the lines are written, and stdout is usually a pipe or a socket,
    // which has every line by then but cannot be fsynced (EINVAL): that is no failure.
    flush(callback?: (error?: Error) => void) {
      stream.flush((error) => callback?.(error && (error as NodeJS.ErrnoException).code !== 'EINVAL' ? error : undefined));
    },
  };
  stdout = destination;
  return destination;
}

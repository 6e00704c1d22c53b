import { pino, type DestinationStream, type Logger } from 'pino';
import type { Logger as HttpLogger } from '@inkwell/adapters-http';
import type { LogLevel } from './config.js';
import { redactUrlPasswords } from './redact-url-passwords.js';

/** The fields that carry a secret: passwords (the account's own changes send two), hashes, tokens, credentials. */
const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'passwordHash', 'token', 'authorization'];

/** Where a secret can sit in a line's top level: the fields themselves, and a headers object's credentials. */
const TOP_LEVEL_SECRETS = [...SECRET_FIELDS, 'headers.authorization'];

/**
 * inkwell's structured JSON logger. Secrets are redacted by path (a top-level field, or one level
 * down) as a second line of defence: no code path logs them on purpose. As a last one, every
 * finished line passes through `redactUrlPasswords`, so `DB_URL`'s password cannot reach the
 * output by any path.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inkwell' },
      redact: { paths: [...TOP_LEVEL_SECRETS, ...TOP_LEVEL_SECRETS.map((path) => `*.${path}`)], censor: '[redacted]' },
      hooks: { streamWrite: redactUrlPasswords },
    },
    destination ?? standardOutput(),
  );
}

/**
 * A logger for lines whose fields are all plain and top-level, such as the line written on every
 * request. `createLogger` also redacts nested paths (`*.password`), and pino runs those wildcard
 * paths over every field of every line, numbers and strings included: measured at about a third
 * of the cost of a whole request line. No nested path can match in such a line; this child keeps
 * the top-level names redacted and shares everything else (level, destination, the URL-password
 * hook) with `logger`. A logger that is not pino (a test's capture logger) is used as it is.
 */
export function plainLineLogger(logger: HttpLogger): HttpLogger {
  const child = (logger as Partial<Pick<Logger, 'child'>>).child;
  if (typeof child !== 'function') return logger;
  return child.call(logger, {}, { redact: { paths: TOP_LEVEL_SECRETS, censor: '[redacted]' } });
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
 * what is left FLUSH_AFTER_MS later: a `write` syscall per line costs about a tenth of the CPU
 * time of a small GET. The writes are synchronous, as pino's default is, so none is ever in
 * flight: an asynchronous writer loses the batch it is writing when the process ends while
 * stdout is full (logger.test.ts pipes into a full pipe to check). What waits is written when the process exits,
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

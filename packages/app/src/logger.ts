import { pino, type DestinationStream, type Logger } from 'pino';
import type { Logger as HttpLogger } from '@inkwell/adapters-http';
import type { LogLevel } from './config.js';
import { lineRedactor, redactUrlPasswords, type Secrets } from './redact-url-passwords.js';

/** The fields that carry a secret: passwords (the account's own changes send two), hashes, tokens, credentials. */
const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'passwordHash', 'token', 'authorization'];

/** Where a secret can sit in a line's top level: the fields themselves, and a headers object's credentials. */
const TOP_LEVEL_SECRETS = [...SECRET_FIELDS, 'headers.authorization'];

/** Where each logger made by `createLogger` writes, and its base fields as pino writes them. */
interface LineTarget {
  readonly destination: DestinationStream;
  readonly bindings: string;
}

const lineTargets = new WeakMap<Logger, LineTarget>();

/** No secret values to look for: every URL's password is still redacted by pattern. */
const NO_SECRETS: Secrets = { urls: [], values: [] };

/**
 * inkwell's structured JSON logger. Secrets are redacted by path (a top-level field, or one level
 * down) as a second line of defence: no code path logs them on purpose. As a last one, every
 * finished line passes through `lineRedactor(secrets)`: the passwords of the configured URLs
 * (`DB_URL`, `MAIL_URL`) and the other secret values are replaced wherever they appear, whatever
 * characters they hold, and every other URL's password by pattern, so none can reach the output
 * by any path. `fields` are added to every line after `service` (a cluster process's `pid`).
 */
export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
  fields: Readonly<Record<string, string | number>> = {},
  secrets: Secrets = NO_SECRETS,
): Logger {
  const base = { service: 'inkwell', ...fields };
  const target = destination ?? standardOutput();
  const logger = pino(
    {
      level,
      base,
      redact: { paths: [...TOP_LEVEL_SECRETS, ...TOP_LEVEL_SECRETS.map((path) => `*.${path}`)], censor: '[redacted]' },
      hooks: { streamWrite: lineRedactor(secrets) },
    },
    target,
  );
  lineTargets.set(logger, { destination: target, bindings: `,${JSON.stringify(base).slice(1, -1)}` });
  return logger;
}

/**
 * A logger for lines whose fields are all plain and top-level, such as the line written on every
 * request. It writes such a line itself, byte for byte as `logger` would (level, time, the base
 * fields, the fields, the message), with the secret names redacted and URL passwords masked, to
 * `logger`'s own destination: going through pino cost about a sixth of a small GET's
 * instructions, most of them in redaction machinery no plain line needs. A line with anything
 * else in it (an object, an array), and every `warn` and `error`, goes through `logger` itself,
 * with all its redaction. A logger that is not pino (a test's capture logger) is used as it is.
 */
export function plainLineLogger(logger: HttpLogger): HttpLogger {
  const target = lineTargets.get(logger as Logger);
  if (target === undefined) return logger;
  const pinoLogger = logger as Logger;
  const { destination, bindings } = target;
  return {
    info(fields, message) {
      if (pinoLogger.levelVal > INFO) return;
      const line = plainLine(fields, message, bindings);
      if (line === undefined) logger.info(fields, message);
      else destination.write(redactUrlPasswords(line));
    },
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
}

/**
 * What a logger made by `createLogger` writes on every line between `time` and the line's own
 * fields, as JSON text (`,"service":"inkwell"`, and a cluster process's `,"pid":…`), for lines
 * written without it; empty for any other logger.
 */
export function lineBindings(logger: Logger): string {
  return lineTargets.get(logger)?.bindings ?? '';
}

const INFO = 30;
const REDACTED = '[redacted]';
const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_FIELDS);

/** The info line pino would write for `fields`, or undefined when a field is not a string, number or boolean. */
function plainLine(fields: object, message: string | undefined, bindings: string): string | undefined {
  const record = fields as Record<string, unknown>;
  let secret = false;
  for (const name in record) {
    const value = record[name];
    if (value === undefined) continue;
    const kind = typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return undefined;
    if (SECRET_NAMES.has(name)) secret = true;
  }
  // One JSON.stringify of the whole record writes its fields as pino does (in order, undefined
  // left out, a number that is not finite as null), at a fraction of a call per field.
  const json = secret ? JSON.stringify(record, redactSecret) : JSON.stringify(record);
  const own = json.length > 2 ? `,${json.slice(1, -1)}` : '';
  const msg = message === undefined ? '' : `,"msg":${jsonMessage(message)}`;
  return `{"level":${INFO},"time":${Date.now()}${bindings}${own}${msg}}\n`;
}

/** JSON.stringify's replacer for a line with a secret field: its value becomes `[redacted]`, as pino's redaction writes it. */
function redactSecret(name: string, value: unknown): unknown {
  return name !== '' && SECRET_NAMES.has(name) ? REDACTED : value;
}

/** Messages as JSON, remembered: a plain line's message is one of a few constants. */
const jsonMessages = new Map<string, string>();

function jsonMessage(message: string): string {
  let json = jsonMessages.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    if (jsonMessages.size < 256) jsonMessages.set(message, json);
  }
  return json;
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
 * time of a small GET. Lines wait here, counted line by line, and sonic-boom gets one batch at a
 * time (it measures everything it holds on every write, which for a line at a time is the whole
 * batch again). The writes are synchronous, as pino's default is, so none is ever in flight: an
 * asynchronous writer loses the batch it is writing when the process ends while stdout is full
 * (logger.test.ts pipes into a full pipe to check). What waits is written when the process
 * exits, uncaught exceptions included. A log reader that stops reading holds the server up
 * rather than losing lines.
 */
function standardOutput(): DestinationStream {
  if (stdout) return stdout;
  const stream = pino.destination({ dest: 1, sync: true, minLength: 0, maxWrite: PIPE_BUF });
  let waiting = '';
  let waitingBytes = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  const writeWaiting = () => {
    if (waitingBytes === 0) return;
    const batch = waiting;
    waiting = '';
    waitingBytes = 0;
    stream.write(batch);
  };
  const flushWaiting = () => {
    flushTimer = undefined;
    writeWaiting();
  };
  process.once('exit', () => {
    try {
      writeWaiting();
      // Looked up now: pino makes it a no-op once stdout is closed (EPIPE).
      stream.flushSync();
    } catch {
      // stdout is gone (or the stream already ended) as the process ends: nowhere to report it.
    }
  });
  const destination = {
    write(line: string) {
      const bytes = Buffer.byteLength(line);
      if (waitingBytes + bytes > PIPE_BUF) writeWaiting();
      waiting += line;
      waitingBytes += bytes;
      if (waitingBytes >= (PIPE_BUF * 3) / 4) writeWaiting();
      // Only while lines come: an idle server sets no timer and makes no write.
      else flushTimer ??= setTimeout(flushWaiting, FLUSH_AFTER_MS).unref();
    },
    // For pino's `logger.flush(cb)`, which would otherwise call back without writing anything.
    // sonic-boom fsyncs once the lines are written, and stdout is usually a pipe or a socket,
    // which has every line by then but cannot be fsynced (EINVAL): that is no failure.
    flush(callback?: (error?: Error) => void) {
      writeWaiting();
      stream.flush((error) => callback?.(error && (error as NodeJS.ErrnoException).code !== 'EINVAL' ? error : undefined));
    },
  };
  stdout = destination;
  return destination;
}

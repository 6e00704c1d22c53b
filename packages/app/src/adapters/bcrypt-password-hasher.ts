import { DomainError, type PasswordHasher } from '@inkwell/domain';
import { hashSync } from 'bcryptjs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Piscina } from 'piscina';
import type { HashJob, VerifyJob } from './password-hash-worker.js';

/** The spec's work factor: the default, and the only one production accepts (config's BCRYPT_COST). */
export const BCRYPT_COST = 12;

/**
 * The work factors a pool may be given; any but 12 only outside production, for a test suite or a
 * development machine that creates many accounts. Above 14 a login takes seconds of a core.
 */
export const BCRYPT_MIN_COST = 4;
/** See `BCRYPT_MIN_COST`. */
export const BCRYPT_MAX_COST = 14;

/**
 * A cost-12 bcrypt hash of 32 random bytes nobody kept: no password matches it, and checking
 * one against it costs exactly what checking a real hash does.
 */
const DUMMY_HASH = '$2b$12$EQQSIUmay0gbW6RkVsJzJ.GxXEMCV9BzP55CZA9DWIbo1qlwP5Elm';

/** How soon a client refused for a full queue may try again: one hash takes a fraction of that. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** The hashing pool's size and queue bound (config's HASH_WORKERS and HASH_QUEUE_MAX). */
export interface HashPoolOptions {
  /** Worker threads, each hashing one password at a time. */
  readonly threads: number;
  /** Jobs that may wait for a free thread; one more is refused with `ServerBusy`. */
  readonly queueMax: number;
  /** The work factor of new hashes, `BCRYPT_MIN_COST` to `BCRYPT_MAX_COST`; `BCRYPT_COST` by default. */
  readonly cost?: number;
}

/** A `PasswordHasher` that owns worker threads, so it has to be closed. */
export interface PooledPasswordHasher extends PasswordHasher {
  /** Lets running and queued jobs finish, then stops the threads. */
  close(): Promise<void>;
}

// From source (tests, `pnpm dev`) this module is .ts and so is its worker; built, both are .js.
const workerFile = new URL(`./password-hash-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * bcryptjs behind the `PasswordHasher` port, run in a pool of worker threads so that a login
 * never holds up the event loop. At most `queueMax` jobs wait for a thread; past that, hash and
 * verify reject with `ServerBusy` (503 with Retry-After) rather than letting the backlog, and
 * every waiting client's latency, grow without bound. The threads start now, not at first use.
 */
export function createBcryptPasswordHasher(options: HashPoolOptions): PooledPasswordHasher {
  const cost = options.cost ?? BCRYPT_COST;
  if (!Number.isInteger(cost) || cost < BCRYPT_MIN_COST || cost > BCRYPT_MAX_COST) throw new RangeError(`bcrypt cost must be a whole number from ${BCRYPT_MIN_COST} to ${BCRYPT_MAX_COST}`);
  // A login for an unknown address checks the dummy hash: at the pool's own cost, or it would
  // answer faster (or slower) than one for a known address and tell the two apart. Once, here.
  const dummyHash = cost === BCRYPT_COST ? DUMMY_HASH : hashSync(randomBytes(32).toString('base64'), cost);
  const pool = new Piscina<HashJob | VerifyJob, string | boolean>({
    filename: workerFile.href,
    // Piscina loads the worker's handler by name when a thread starts; every job names its own.
    name: 'verify',
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    maxQueue: options.queueMax,
    execArgv: workerExecArgv(),
  });

  let closing: Promise<void> | undefined;
  const run = <R>(name: 'hash' | 'verify', job: HashJob | VerifyJob): Promise<R> => {
    // A closed piscina pool would quietly start new threads for a late job.
    if (closing) return Promise.reject(serverBusy());
    // Checked before handing the job over, so the answer does not hang on piscina's wording;
    // an idle thread takes the job at once, so a queue bound of 0 still lets jobs run.
    if (pool.queueSize >= options.queueMax && pool.idleThreads === 0) return Promise.reject(serverBusy());
    return pool.run(job, { name }).catch((error: unknown) => {
      throw isQueueFull(error) ? serverBusy(error) : error;
    }) as Promise<R>;
  };

  return {
    dummyHash,
    hash: (password) => run<string>('hash', { password, cost } satisfies HashJob),
    verify: (password, passwordHash) => run<boolean>('verify', { password, passwordHash } satisfies VerifyJob),
    close: () => (closing ??= pool.close()),
  };
}

function serverBusy(cause?: unknown): DomainError {
  return new DomainError('ServerBusy', undefined, { cause, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && /Task queue is at limit|No task queue available/.test(error.message);
}

/**
 * A built server passes nothing, so its threads inherit the process's flags the way Node
 * filters them (an explicit list containing a process-wide flag such as --expose-gc is
 * refused). From source the worker is TypeScript, and on Node 20 neither tsx's `--import tsx`
 * (it registers in the main thread only) nor vitest's in-process transform reaches a worker
 * thread, while a `--require` preload does: tsx's CommonJS hook lets piscina `require` the .ts file.
 */
function workerExecArgv(): string[] | undefined {
  if (!workerFile.pathname.endsWith('.ts')) return undefined;
  return [...process.execArgv, '--require', createRequire(import.meta.url).resolve('tsx/cjs')];
}

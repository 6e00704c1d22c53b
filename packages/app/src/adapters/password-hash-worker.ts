// Runs inside the hashing pool's worker threads (bcrypt-password-hasher.ts). The synchronous
// bcryptjs calls are right here: a worker thread has nothing else to do, and the async API
// would only add a setImmediate per round of work.
import { compareSync, hashSync } from 'bcryptjs';
import { setPriority } from 'node:os';

/** A password to hash at `cost`. */
export interface HashJob {
  readonly password: string;
  readonly cost: number;
}

/** A password to check against a stored hash. */
export interface VerifyJob {
  readonly password: string;
  readonly passwordHash: string;
}

// On Linux, priority is per thread and 0 names the calling one: hashing yields the CPU to the
// event loop whenever both want it, so reads keep a short tail while every core is hashing.
// Where that is not allowed or not per thread, hashing simply runs at normal priority.
try {
  setPriority(0, 10);
} catch {
  // not permitted here: keep the default priority
}

/** Piscina task `hash`: a fresh-salt bcrypt hash of the password. */
export function hash(job: HashJob): string {
  return hashSync(job.password, job.cost);
}

/** Piscina task `verify`: whether the password matches the hash. */
export function verify(job: VerifyJob): boolean {
  return compareSync(job.password, job.passwordHash);
}

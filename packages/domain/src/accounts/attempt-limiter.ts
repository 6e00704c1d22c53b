import { DomainError } from '../shared/errors.js';

/** What `AttemptLimiter.take` decided: counted and allowed, or refused with the wait until a retry can succeed. */
export type AttemptVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Counts attempts per key (an e-mail, a client address) against one limit, for the brute-force
 * rules of login and signup. One instance is one rule: its limit, its window and its keys. The
 * in-memory implementation serves one process; several instances behind a load balancer need an
 * implementation over a shared store (Redis `INCR` + `EXPIRE`, a MongoDB TTL collection) so
 * they count together: see the README's Security section.
 */
export interface AttemptLimiter {
  /**
   * Counts one attempt for `key` when it is under the limit, in one atomic step (so concurrent
   * attempts cannot all slip through a check-then-count gap). A refused attempt is not counted.
   */
  take(key: string): Promise<AttemptVerdict>;
  /** Uncounts one attempt taken for `key` that turned out not to count (a correct login, a store failure). */
  giveBack(key: string): Promise<void>;
  /** Forgets every attempt counted for `key`. */
  reset(key: string): Promise<void>;
}

/** One attempt to take: a limiter and the key it counts. */
export interface LimitedKey {
  readonly limiter: AttemptLimiter;
  readonly key: string;
}

/** The pair to take, or nothing when the rule is off (no limiter) or the key is unknown (no client address). */
export function limitedKey(limiter: AttemptLimiter | undefined, key: string | undefined): LimitedKey | undefined {
  return limiter === undefined || key === undefined || key === '' ? undefined : { limiter, key };
}

/**
 * Takes one attempt on each key, in order. If one refuses, the attempts already taken are
 * given back and `TooManyAttempts` is thrown with that limiter's wait. Returns what was taken,
 * for `giveBackAttempts`.
 */
export async function takeAttempts(keys: readonly (LimitedKey | undefined)[]): Promise<LimitedKey[]> {
  const taken: LimitedKey[] = [];
  for (const entry of keys) {
    if (entry === undefined) continue;
    const verdict = await entry.limiter.take(entry.key);
    if (!verdict.allowed) {
      await giveBackAttempts(taken);
      throw new DomainError('TooManyAttempts', undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
    }
    taken.push(entry);
  }
  return taken;
}

/** Gives back every attempt `takeAttempts` took. */
export async function giveBackAttempts(taken: readonly LimitedKey[]): Promise<void> {
  await Promise.all(taken.map(({ limiter, key }) => limiter.giveBack(key)));
}

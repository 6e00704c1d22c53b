import { DomainError } from '../shared/errors.js';

/**
 * What `AttemptLimiter.take` decided: counted and allowed, with the window that counted it (for
 * `giveBack`; absent when nothing was counted, the rule being off), or refused with the wait until
 * a retry can succeed.
 */
export type AttemptVerdict =
  | { readonly allowed: true; readonly window?: string }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Counts attempts per key (an e-mail, a client address) against one limit, for the brute-force
 * rules of login and signup. One instance is one rule: its limit, its window and its keys.
 *
 * Every implementation means the same (`describeAttemptLimiterContract` in
 * `@inkwell/domain/testing` checks it): a fixed window per key, opened by the key's first
 * attempt, allows `max` attempts until it ends; a refused attempt is not counted; the wait
 * reported is the time left in the window; an attempt given back is uncounted from the window that
 * counted it, never from a later one. `createInMemoryAttemptLimiter` counts in one
 * process; an implementation over a shared store (the MongoDB adapter's) makes every process on
 * that store count together.
 */
export interface AttemptLimiter {
  /**
   * Counts one attempt for `key` when it is under the limit, in one atomic step (so concurrent
   * attempts cannot all slip through a check-then-count gap). A refused attempt is not counted.
   */
  take(key: string): Promise<AttemptVerdict>;
  /**
   * Uncounts one attempt taken for `key` that turned out not to count (a correct login, a store
   * failure), from `window`, the window `take` said counted it; nothing when that window has ended
   * or was reset since, so an attempt never frees room in a later window than its own.
   */
  giveBack(key: string, window: string): Promise<void>;
  /** Forgets every attempt counted for `key`. */
  reset(key: string): Promise<void>;
}

/** Failed logins counted per e-mail and, at a higher limit, per client address. */
export interface LoginLimits {
  readonly failuresPerEmail?: AttemptLimiter;
  readonly failuresPerAddress?: AttemptLimiter;
}

/** Signups counted per client address. */
export interface SignupLimits {
  readonly perAddress?: AttemptLimiter;
}

/**
 * The abuse rules of mail; a rule without a limiter is off. Reset requests are counted for every
 * address asked, whether an account has it or not, three ways, so that one client's requests for
 * an address never use up another client's: per e-mail from one client address, per e-mail from
 * every client together (the cap that bounds flooding), and per client address.
 */
export interface MailLimits {
  /** Password reset requests per e-mail from one client address (the key is the pair: `resetFromKey`). */
  readonly resetsPerEmailFromAddress?: AttemptLimiter;
  /** Password reset requests per e-mail, from every client address together. */
  readonly resetsPerEmail?: AttemptLimiter;
  /** Password reset requests per client address. */
  readonly resetsPerAddress?: AttemptLimiter;
  /** Verification mails an account asks for again (`POST /me/verify-email`), per account. */
  readonly verificationsPerAccount?: AttemptLimiter;
  /**
   * Mails sent to one address, whatever asked for them (signup, a verification asked again, a
   * reset, an e-mail change, the notices): the recipient's budget, counted when a mail is about
   * to go (`deliverMessage`). Past it nothing more is sent to that address until its window ends;
   * the requests that asked for mail answer as ever.
   */
  readonly mailsPerRecipient?: AttemptLimiter;
}

/**
 * The abuse rules of `PATCH /me` with a new e-mail; a rule without a limiter is off. Every change
 * whose current password was right counts, an e-mail already in use (409) included: per account,
 * so that one account cannot move between addresses (each move mails both), and per client
 * address, so that the 409 cannot be used to learn which e-mails have accounts faster than
 * signup's limit allows.
 */
export interface EmailChangeLimits {
  /** E-mail changes per account (its id). */
  readonly perAccount?: AttemptLimiter;
  /** E-mail changes per client address, whichever accounts they change. */
  readonly perAddress?: AttemptLimiter;
}

/** The key of `MailLimits.resetsPerEmailFromAddress`: the e-mail and the client address (neither holds a space). */
export function resetFromKey(email: string, clientAddress: string | undefined): string | undefined {
  return clientAddress === undefined || clientAddress === '' ? undefined : `${email} ${clientAddress}`;
}

/** One attempt to take: a limiter and the key it counts. */
export interface LimitedKey {
  readonly limiter: AttemptLimiter;
  readonly key: string;
}

/** One attempt taken: the limiter, the key, and the window that counted it. */
export interface TakenAttempt extends LimitedKey {
  readonly window: string;
}

/** The pair to take, or nothing when the rule is off (no limiter) or the key is unknown (no client address). */
export function limitedKey(limiter: AttemptLimiter | undefined, key: string | undefined): LimitedKey | undefined {
  return limiter === undefined || key === undefined || key === '' ? undefined : { limiter, key };
}

/**
 * Takes one attempt on each key, in order. If one refuses, the attempts already taken are
 * given back and `TooManyAttempts` is thrown with that limiter's wait; if one fails (its store
 * is unreachable), they are given back and its error is thrown, so the caller answers without
 * checking anything: a limit that cannot be counted never lets an attempt through. Returns what
 * was taken (counted), for `giveBackAttempts`.
 */
export async function takeAttempts(keys: readonly (LimitedKey | undefined)[]): Promise<TakenAttempt[]> {
  const taken: TakenAttempt[] = [];
  try {
    for (const entry of keys) {
      if (entry === undefined) continue;
      const verdict = await entry.limiter.take(entry.key);
      if (!verdict.allowed) {
        throw new DomainError('TooManyAttempts', undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
      }
      if (verdict.window !== undefined) taken.push({ ...entry, window: verdict.window });
    }
  } catch (error) {
    await giveBackAttempts(taken);
    throw error;
  }
  return taken;
}

/**
 * Gives back every attempt `takeAttempts` took. Best effort: a limiter that fails to give one
 * back (its store just went away) leaves that attempt counted, which errs on the strict side,
 * and the caller's own outcome is what the client hears.
 */
export async function giveBackAttempts(taken: readonly TakenAttempt[]): Promise<void> {
  await Promise.allSettled(taken.map(({ limiter, key, window }) => limiter.giveBack(key, window)));
}

/** Forgets the count of `entry`'s key, best effort like `giveBackAttempts`. */
export async function resetAttempts(entry: LimitedKey | undefined): Promise<void> {
  await entry?.limiter.reset(entry.key).catch(() => undefined);
}

import type { AttemptLimiter, Clock, LoginLimits, MailLimits, PostWriteLimits, SignupLimits } from '@inkwell/domain';
import type { Config } from './config.js';
import type { Store } from './store.js';

/** The login, signup and mail limits the configuration asks for, as the use cases take them. */
export interface AbuseLimits {
  readonly loginLimits: LoginLimits;
  readonly signupLimits: SignupLimits;
  readonly mailLimits: MailLimits;
}

/**
 * A limiter per configured rule (a `max` of 0 leaves that rule off), from the store: in the
 * process on the memory store, in the database on MongoDB, where every process and instance
 * on one database counts together.
 */
export function createAbuseLimits(limits: Config['limits'], store: Pick<Store, 'attemptLimiter'>, clock: Clock): AbuseLimits {
  const limiter = limiterOf(store, clock);
  return {
    loginLimits: {
      failuresPerEmail: limiter('login-email', limits.loginFailuresPerEmail),
      failuresPerAddress: limiter('login-address', limits.loginFailuresPerAddress),
    },
    signupLimits: { perAddress: limiter('signup-address', limits.signupsPerAddress) },
    mailLimits: {
      resetsPerEmail: limiter('reset-email', limits.passwordResetsPerEmail),
      resetsPerAddress: limiter('reset-address', limits.passwordResetsPerAddress),
      verificationsPerAccount: limiter('verify-account', limits.verificationMailsPerAccount),
    },
  };
}

/** The write budget of posts the configuration asks for (`POST_WRITES_MAX_PER_ADDRESS`; 0 leaves it off), counted where the store counts. */
export function createPostWriteLimits(postWrites: Config['postWrites'], store: Pick<Store, 'attemptLimiter'>, clock: Clock): PostWriteLimits {
  return { perAddress: limiterOf(store, clock)('post-write-address', postWrites) };
}

/** A limiter for one rule from `store`, or none when its `max` is 0. */
function limiterOf(store: Pick<Store, 'attemptLimiter'>, clock: Clock) {
  return (rule: string, { max, windowSeconds }: { max: number; windowSeconds: number }): AttemptLimiter | undefined =>
    max > 0 ? store.attemptLimiter({ rule, max, windowSeconds }, clock) : undefined;
}

import type { Clock, LoginLimits, MailLimits, SignupLimits } from '@inkwell/domain';
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
  const limiter = (rule: string, { max, windowSeconds }: { max: number; windowSeconds: number }) =>
    max > 0 ? store.attemptLimiter({ rule, max, windowSeconds }, clock) : undefined;
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

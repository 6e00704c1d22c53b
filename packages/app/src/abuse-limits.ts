import type { AttemptLimiter, Clock, EmailChangeLimits, LoginLimits, MailLimits, PostWriteLimits, SignupLimits } from '@inkwell/domain';
import type { Config } from './config.js';
import type { Store } from './store.js';

/** The login, signup, e-mail change and mail limits the configuration asks for, as the use cases take them. */
export interface AbuseLimits {
  readonly loginLimits: LoginLimits;
  readonly signupLimits: SignupLimits;
  readonly emailChangeLimits: EmailChangeLimits;
  readonly mailLimits: MailLimits;
}

/**
 * A limiter per configured rule (a `max` of 0 leaves that rule off), from the store: in the
 * process on the memory store, in the database on MongoDB, where every process and instance
 * on one database counts together. Each rule's name keeps its counts apart from the others'.
 */
export function createAbuseLimits(config: Pick<Config, 'limits' | 'mailBudgets'>, store: Pick<Store, 'attemptLimiter'>, clock: Clock): AbuseLimits {
  const { limits, mailBudgets } = config;
  const limiter = limiterOf(store, clock);
  return {
    loginLimits: {
      failuresPerEmail: limiter('login-email', limits.loginFailuresPerEmail),
      failuresPerAddress: limiter('login-address', limits.loginFailuresPerAddress),
    },
    signupLimits: { perAddress: limiter('signup-address', limits.signupsPerAddress) },
    emailChangeLimits: {
      perAccount: limiter('email-change-account', mailBudgets.emailChangesPerAccount),
      perAddress: limiter('email-change-address', mailBudgets.emailChangesPerAddress),
    },
    mailLimits: {
      resetsPerEmailFromAddress: limiter('reset-email-address', limits.passwordResetsPerEmail),
      resetsPerEmail: limiter('reset-email', mailBudgets.passwordResetsPerEmailTotal),
      resetsPerAddress: limiter('reset-address', limits.passwordResetsPerAddress),
      verificationsPerAccount: limiter('verify-account', limits.verificationMailsPerAccount),
      mailsPerRecipient: limiter('mail-recipient', mailBudgets.mailsPerRecipient),
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

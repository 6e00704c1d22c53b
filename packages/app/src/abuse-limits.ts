import type { Clock, EmailChangeLimits, LoginLimits, MailLimits, SignupLimits } from '@inkwell/domain';
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
  const limiter = (rule: string, { max, windowSeconds }: { max: number; windowSeconds: number }) =>
    max > 0 ? store.attemptLimiter({ rule, max, windowSeconds }, clock) : undefined;
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

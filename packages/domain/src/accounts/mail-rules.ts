/** How long the links a mail carries keep working, from the moment they were asked for. */
export interface MailRules {
  /** A password reset link (`POST /auth/password-reset/confirm`). */
  readonly passwordResetTtlMs: number;
  /** An e-mail verification link (`POST /auth/verify-email`). */
  readonly emailVerificationTtlMs: number;
}

/** The rules of `PASSWORD_RESET_TTL_SECONDS` and `EMAIL_VERIFY_TTL_SECONDS` unset: 30 minutes and 24 hours. */
export const DEFAULT_MAIL_RULES: MailRules = { passwordResetTtlMs: 30 * 60 * 1000, emailVerificationTtlMs: 24 * 60 * 60 * 1000 };

/**
 * How many live password reset links an account keeps: a link asked for later never ends an earlier
 * one (else a stranger's requests would end the owner's), so each ends on its use, its expiry or a
 * password change, and past this many the oldest goes (so a flood of requests cannot grow an account).
 */
export const PASSWORD_RESET_LINKS_KEPT = 5;

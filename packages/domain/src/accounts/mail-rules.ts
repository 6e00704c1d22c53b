/** How long the links a mail carries keep working, from the moment they were asked for. */
export interface MailRules {
  /** A password reset link (`POST /auth/password-reset/confirm`). */
  readonly passwordResetTtlMs: number;
  /** An e-mail verification link (`POST /auth/verify-email`). */
  readonly emailVerificationTtlMs: number;
}

/** The rules of `PASSWORD_RESET_TTL_SECONDS` and `EMAIL_VERIFY_TTL_SECONDS` unset: 30 minutes and 24 hours. */
export const DEFAULT_MAIL_RULES: MailRules = { passwordResetTtlMs: 30 * 60 * 1000, emailVerificationTtlMs: 24 * 60 * 60 * 1000 };

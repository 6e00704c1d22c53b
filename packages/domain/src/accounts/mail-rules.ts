/** How long the links a mail carries keep working, from the moment they were asked for, and how many reset links an account keeps. */
export interface MailRules {
  /** A password reset link (`POST /auth/password-reset/confirm`). */
  readonly passwordResetTtlMs: number;
  /** An e-mail verification link (`POST /auth/verify-email`). */
  readonly emailVerificationTtlMs: number;
  /**
   * How many live password reset links an account keeps (`resetLinksKept`). A link asked for later
   * never ends an earlier one (else a stranger's requests would end the owner's): each ends on its
   * use, its expiry or a password change. Only past this many, which the limits on reset requests
   * never reach, does the oldest go, so that a flood of requests cannot grow an account.
   */
  readonly passwordResetLinksKept: number;
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The reset links an account keeps so that no request within the limits ends another's link: as
 * many as can be asked for one e-mail while a link lives. `requestsPerWindow` requests are allowed
 * per fixed window of `windowMs`; links asked for within any `ttlMs` (the ones still alive) fall in
 * at most ceil(ttlMs / windowMs) + 1 consecutive windows.
 */
export function resetLinksKept(requestsPerWindow: number, windowMs: number, ttlMs: number): number {
  return requestsPerWindow * (Math.ceil(ttlMs / windowMs) + 1);
}

/**
 * The rules of `PASSWORD_RESET_TTL_SECONDS` and `EMAIL_VERIFY_TTL_SECONDS` unset: 30 minutes and 24
 * hours; and the reset links kept for the default cap of 10 requests per e-mail an hour: 20.
 */
export const DEFAULT_MAIL_RULES: MailRules = {
  passwordResetTtlMs: 30 * MINUTE_MS,
  emailVerificationTtlMs: 24 * HOUR_MS,
  passwordResetLinksKept: resetLinksKept(10, HOUR_MS, 30 * MINUTE_MS),
};

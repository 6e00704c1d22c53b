import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { limitedKey, resetAttempts } from './attempt-limiter.js';
import { hashLinkToken } from './link-tokens.js';
import { enqueue, passwordChangedNotice } from './outgoing-mail.js';
import { ConfirmPasswordResetSchema } from './schemas.js';
import { DEFAULT_SESSION_RULES, newSession } from './session.js';
import { signedIn } from './signed-in.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { SignedIn } from './user.js';

/** What `confirmPasswordReset` reads: the body (`ConfirmPasswordResetSchema`). */
export type ConfirmPasswordResetRequest = Pick<UseCaseRequest, 'body'>;

/**
 * Sets a new password with a reset link's token (docs/api.md, `POST /auth/password-reset/confirm`).
 * The whole body is validated before the token is looked at, so a refused body uses nothing. The
 * token must be the account's recorded reset (by its hash), unexpired, sent to the address the
 * account still has: otherwise `InvalidLinkToken`, before any hashing. Then the new password is
 * hashed and one atomic write consumes the reset, while it is still the one recorded: the new
 * hash, the address verified (the reset mail reached it), every session and token without one
 * ended, and one new session, whose token is the answer. Two uses of one token: one wins, the
 * other is `InvalidLinkToken`. Then the failed logins counted for the e-mail are forgotten and a
 * notice goes to the address.
 */
export async function confirmPasswordReset(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'outbox' | 'loginLimits' | 'sessionRules'>,
  request: ConfirmPasswordResetRequest,
): Promise<SignedIn> {
  if (!deps.outbox) throw new DomainError('NotOffered');
  const { token, newPassword } = parseInput(ConfirmPasswordResetSchema, await readBody(request.body));
  const tokenHash = await hashLinkToken(token);
  const user = await deps.users.findByPasswordReset(tokenHash, deps.clock.now());
  if (!user) throw new DomainError('InvalidLinkToken');

  const passwordHash = await deps.hasher.hash(newPassword);
  const now = deps.clock.now();
  const reset = await deps.users.resetPassword(user.id, tokenHash, passwordHash, newSession(now, deps.sessionRules ?? DEFAULT_SESSION_RULES), now);
  if (!reset) throw new DomainError('InvalidLinkToken');

  await resetAttempts(limitedKey(deps.loginLimits?.failuresPerEmail, reset.user.email));
  await enqueue(deps.outbox, () => [passwordChangedNotice(reset.user, now)]);
  return signedIn(deps.tokens, reset.user, reset.session, now);
}

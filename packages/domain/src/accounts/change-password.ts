import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import { confirmCurrentPassword } from './password-attempt.js';
import { enqueue, passwordChangedNotice } from './outgoing-mail.js';
import { ChangePasswordSchema } from './schemas.js';
import type { UseCaseRequest } from './use-case-request.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `changePassword` reads: the credentials, then the body (`ChangePasswordSchema`), and the client, whose address the login limits count. */
export type ChangePasswordRequest = Pick<UseCaseRequest, 'credentials' | 'body' | 'client'>;

/**
 * Replaces the account's password (docs/api.md, `POST /auth/password`). The token first, then the
 * body; a wrong current password is `CurrentPasswordIncorrect`, counted as a failed login of the
 * account's e-mail, and changes nothing. Otherwise the new hash is stored and, in the same step,
 * every other session of the account ends, tokens without a session too: the caller's own
 * session (or token without one) continues, and only the new password logs in. When mail is on,
 * a notice goes to the account's address.
 *
 * The change applies only if, when it is stored, the caller's token is still accepted and the
 * password is still the one checked. Otherwise nothing changes, and the answer is what it would
 * have been had the request started after whatever got in between: `InvalidToken` for a session
 * another change ended, `UserNoLongerExists` for a deleted account, and `CurrentPasswordIncorrect`
 * for a password changed through the same session (not counted as a failed login: it was no guess).
 */
export async function changePassword(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'loginLimits' | 'outbox'>,
  request: ChangePasswordRequest,
): Promise<PublicUser> {
  const { user, token } = await authenticate(deps, request);
  const { currentPassword, newPassword } = parseInput(ChangePasswordSchema, await readBody(request.body));
  await confirmCurrentPassword(deps, user, currentPassword, request.client);

  const passwordHash = await deps.hasher.hash(newPassword);
  const now = deps.clock.now();
  const changed = await deps.users.changePassword(user.id, passwordHash, token, now, { passwordHash: user.passwordHash, token });
  if (!changed) throw await refusal(deps, request, 'CurrentPasswordIncorrect');
  await enqueue(deps.outbox, () => [passwordChangedNotice(changed, now)]);
  return toPublicUser(changed);
}

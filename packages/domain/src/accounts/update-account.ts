import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import { confirmCurrentPassword } from './password-attempt.js';
import { emailChangedNotice, emailVerification, enqueue } from './outgoing-mail.js';
import { UpdateAccountSchema } from './schemas.js';
import type { UseCaseRequest } from './use-case-request.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `updateAccount` reads: the credentials, then the body (`UpdateAccountSchema`), and the client, whose address the login limits count. */
export type UpdateAccountRequest = Pick<UseCaseRequest, 'credentials' | 'body' | 'client'>;

/**
 * Changes the account's name and e-mail (docs/api.md, `PATCH /me`). The token first, then the
 * body. A new e-mail (trimmed and lower-cased, like signup's) needs the current password, checked
 * under the login limits; an e-mail another account has is `EmailAlreadyInUse`. A body that names
 * neither `name` nor `email` changes nothing and is `ValidationFailed`. Sessions are not affected.
 * A new e-mail (another than the account's) is unverified: when mail is on, a verification link
 * goes to it and a notice to the address the account left. The account's own e-mail again
 * changes nothing about it.
 *
 * The change applies only if, when it is stored, the caller's token is still accepted and (for a
 * new e-mail) the password is still the one checked; otherwise nothing changes, and the answer is
 * the one the request would have had after whatever got in between (see `changePassword`).
 */
export async function updateAccount(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'loginLimits' | 'outbox'>,
  request: UpdateAccountRequest,
): Promise<PublicUser> {
  const { user, token } = await authenticate(deps, request);
  const { name, email, currentPassword } = parseInput(UpdateAccountSchema, await readBody(request.body));
  // The schema requires `currentPassword` along with `email`.
  if (email !== undefined) await confirmCurrentPassword(deps, user, currentPassword ?? '', request.client);

  const changes = {
    ...(name !== undefined && { name }),
    ...(email !== undefined && { email }),
    updatedAt: Math.max(deps.clock.now(), user.updatedAt),
  };
  const updated = await deps.users.update(user.id, changes, email === undefined ? { token } : { token, passwordHash: user.passwordHash });
  if (!updated) throw await refusal(deps, request, 'CurrentPasswordIncorrect');
  if (email !== undefined && email !== user.email) {
    await enqueue(deps.outbox, () => [emailVerification(updated, changes.updatedAt), emailChangedNotice(updated, user.email, changes.updatedAt)]);
  }
  return toPublicUser(updated);
}

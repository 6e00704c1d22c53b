import { isDomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { giveBackAttempts, limitedKey, takeAttempts } from './attempt-limiter.js';
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
 * under the login limits; then the change counts against the e-mail change limits (per account and
 * per client address: `TooManyAttempts` past either), an e-mail another account has
 * (`EmailAlreadyInUse`) included, so that neither the mail a change sends nor the 409 can be had
 * without bound. A body that names neither `name` nor `email` changes nothing and is
 * `ValidationFailed`. Sessions are not affected. A new e-mail (another than the account's) is
 * unverified: when mail is on, a verification link goes to it and a notice to the address the
 * account left. The account's own e-mail again changes nothing about it, and is not counted.
 *
 * The change applies only if, when it is stored, the caller's token is still accepted and (for a
 * new e-mail) the password is still the one checked; otherwise nothing changes, the change is not
 * counted, and the answer is the one the request would have had after whatever got in between
 * (see `changePassword`). A change that ends in a store failure is not counted either.
 */
export async function updateAccount(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'loginLimits' | 'emailChangeLimits' | 'outbox'>,
  request: UpdateAccountRequest,
): Promise<PublicUser> {
  const { user, token } = await authenticate(deps, request);
  const { name, email, currentPassword } = parseInput(UpdateAccountSchema, await readBody(request.body));
  // The schema requires `currentPassword` along with `email`.
  if (email !== undefined) await confirmCurrentPassword(deps, user, currentPassword ?? '', request.client);
  const moves = email !== undefined && email !== user.email;
  const taken = moves
    ? await takeAttempts([
        limitedKey(deps.emailChangeLimits?.perAddress, request.client?.clientAddress),
        limitedKey(deps.emailChangeLimits?.perAccount, user.id),
      ])
    : [];

  const changes = {
    ...(name !== undefined && { name }),
    ...(email !== undefined && { email }),
    updatedAt: Math.max(deps.clock.now(), user.updatedAt),
  };
  const apply = async () => {
    const stored = await deps.users.update(user.id, changes, email === undefined ? { token } : { token, passwordHash: user.passwordHash });
    if (!stored) throw await refusal(deps, request, 'CurrentPasswordIncorrect');
    return stored;
  };
  const updated = await apply().catch(async (error: unknown) => {
    // An e-mail in use counts (the 409 is what the limits bound); a change that did not apply does not.
    if (!isDomainError(error, 'EmailAlreadyInUse')) await giveBackAttempts(taken);
    throw error;
  });
  if (moves) await enqueue(deps.outbox, () => [emailVerification(updated, changes.updatedAt), emailChangedNotice(updated, user.email, changes.updatedAt)]);
  return toPublicUser(updated);
}

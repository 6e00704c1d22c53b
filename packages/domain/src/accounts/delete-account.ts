import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import { confirmCurrentPassword } from './password-attempt.js';
import { DeleteAccountSchema } from './schemas.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `deleteAccount` reads: the credentials, then the body (`DeleteAccountSchema`), and the client, whose address the login limits count. */
export type DeleteAccountRequest = Pick<UseCaseRequest, 'credentials' | 'body' | 'client'>;

/**
 * How long an account reads as gone once its deletion started, at most: a deletion takes a few
 * database round trips, and one whose process dies midway leaves the account as it was once this
 * has passed, able to try again.
 */
export const ACCOUNT_DELETION_LEASE_MS = 60_000;

/**
 * Deletes the account, its sessions and every post whose `authorId` is its id (docs/api.md,
 * `DELETE /me`). The token first, then the body; a wrong current password is
 * `CurrentPasswordIncorrect`, counted as a failed login, and deletes nothing.
 *
 * The deletion is decided in one atomic step, `startDeletion`, which applies only while the
 * caller's token is still accepted and the password is still the one checked (otherwise nothing
 * changes, and the answer is the one the request would have had after whatever got in between,
 * as in `changePassword`). From that step on the account reads as gone: its tokens answer
 * `UserNoLongerExists`, and a password change still in flight can no longer apply.
 *
 * All or retryable, without a transaction: then the posts go, then the account (its sessions with
 * it, in the same document), then the posts once more, for any that a process of the service
 * stored and failed to take back in between (`createPost` takes back a post whose author is gone
 * by the time it is stored). If a step fails, the mark is lifted and what came before is done: up
 * to the account's own delete the account is still there, its tokens work, and the same request
 * again finishes the job; after it, the account is gone and its e-mail free. A process that dies
 * midway leaves the mark to lapse (`ACCOUNT_DELETION_LEASE_MS`).
 */
export async function deleteAccount(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'loginLimits' | 'posts'>,
  request: DeleteAccountRequest,
): Promise<void> {
  const { user, token } = await authenticate(deps, request);
  const { currentPassword } = parseInput(DeleteAccountSchema, await readBody(request.body));
  await confirmCurrentPassword(deps, user, currentPassword, request.client);

  const now = deps.clock.now();
  const started = await deps.users.startDeletion(user.id, now + ACCOUNT_DELETION_LEASE_MS, now, { passwordHash: user.passwordHash, token });
  if (!started) throw await refusal(deps, request, 'CurrentPasswordIncorrect');

  try {
    await deps.posts.deleteByAuthor(user.id);
    if (!(await deps.users.delete(user.id))) throw new DomainError('UserNoLongerExists');
  } catch (error) {
    await deps.users.cancelDeletion(user.id).catch(() => undefined);
    throw error;
  }
  await deps.posts.deleteByAuthor(user.id);
}

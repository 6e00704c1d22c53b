import { DomainError } from '../shared/errors.js';
import { parseInput, readInput } from '../shared/validation.js';
import type { PostRepository } from '../posts/ports.js';
import type { Credentials } from './credentials.js';
import { authenticate, type AuthenticateDeps } from './authenticate.js';
import type { ClientContext } from './client-context.js';
import { confirmCurrentPassword, type PasswordAttemptDeps } from './password-attempt.js';
import { DeleteAccountSchema } from './schemas.js';

/** What `DELETE /me` needs: the accounts, and the posts that go with one. */
export interface DeleteAccountDeps extends AuthenticateDeps, PasswordAttemptDeps {
  readonly posts: PostRepository;
}

/**
 * Deletes the account, its sessions and every post whose `authorId` is its id (docs/api.md,
 * `DELETE /me`). The token first, then the body; a wrong current password is
 * `CurrentPasswordIncorrect`, counted as a failed login, and deletes nothing.
 *
 * All or retryable, without a transaction: the posts go first, then the account (its sessions
 * with it, in the same document), then the posts once more, for any a request of the account
 * stored in between. If a step fails, what came before it is done and nothing after it: up to the
 * account's own delete the account is still there, its tokens still work, and the same request
 * again finishes the job; after it, the account is gone and its e-mail free.
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  credentials: Credentials,
  input: unknown,
  context: ClientContext = {},
): Promise<void> {
  const { user } = await authenticate(deps, credentials);
  const { currentPassword } = parseInput(DeleteAccountSchema, await readInput(input));
  await confirmCurrentPassword(deps, user, currentPassword, context);

  await deps.posts.deleteByAuthor(user.id);
  if (!(await deps.users.delete(user.id))) throw new DomainError('UserNoLongerExists');
  await deps.posts.deleteByAuthor(user.id);
}

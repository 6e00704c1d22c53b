import { DomainError } from '../shared/errors.js';
import { parseInput, readInput } from '../shared/validation.js';
import type { Credentials } from './credentials.js';
import { authenticate, type AuthenticateDeps } from './authenticate.js';
import type { ClientContext } from './client-context.js';
import { confirmCurrentPassword, type PasswordAttemptDeps } from './password-attempt.js';
import { UpdateAccountSchema } from './schemas.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `PATCH /me` needs. */
export interface UpdateAccountDeps extends AuthenticateDeps, PasswordAttemptDeps {}

/**
 * Changes the account's name and e-mail (docs/api.md, `PATCH /me`). The token first, then the
 * body. A new e-mail (trimmed and lower-cased, like signup's) needs the current password, checked
 * under the login limits; an e-mail another account has is `EmailAlreadyInUse`. `{}` is valid and
 * still saves. Sessions are not affected.
 */
export async function updateAccount(
  deps: UpdateAccountDeps,
  credentials: Credentials,
  input: unknown,
  context: ClientContext = {},
): Promise<PublicUser> {
  const { user } = await authenticate(deps, credentials);
  const { name, email, currentPassword } = parseInput(UpdateAccountSchema, await readInput(input));
  // The schema requires `currentPassword` along with `email`.
  if (email !== undefined) await confirmCurrentPassword(deps, user, currentPassword ?? '', context);

  const updated = await deps.users.update(user.id, {
    ...(name !== undefined && { name }),
    ...(email !== undefined && { email }),
    updatedAt: Math.max(deps.clock.now(), user.updatedAt),
  });
  if (!updated) throw new DomainError('UserNoLongerExists');
  return toPublicUser(updated);
}

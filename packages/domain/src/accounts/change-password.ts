import { DomainError } from '../shared/errors.js';
import { parseInput, readInput } from '../shared/validation.js';
import type { Credentials } from './credentials.js';
import { authenticate, type AuthenticateDeps } from './authenticate.js';
import type { ClientContext } from './client-context.js';
import { confirmCurrentPassword, type PasswordAttemptDeps } from './password-attempt.js';
import { ChangePasswordSchema } from './schemas.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `POST /auth/password` needs. */
export interface ChangePasswordDeps extends AuthenticateDeps, PasswordAttemptDeps {}

/**
 * Replaces the account's password (docs/api.md, `POST /auth/password`). The token first, then the
 * body; a wrong current password is `CurrentPasswordIncorrect`, counted as a failed login of the
 * account's e-mail, and changes nothing. Otherwise the new hash is stored and, in the same step,
 * every other session of the account ends, tokens without a session too: the caller's own
 * session continues, and only the new password logs in.
 */
export async function changePassword(
  deps: ChangePasswordDeps,
  credentials: Credentials,
  input: unknown,
  context: ClientContext = {},
): Promise<PublicUser> {
  const { user, session } = await authenticate(deps, credentials);
  const { currentPassword, newPassword } = parseInput(ChangePasswordSchema, await readInput(input));
  await confirmCurrentPassword(deps, user, currentPassword, context);

  const passwordHash = await deps.hasher.hash(newPassword);
  const changed = await deps.users.changePassword(user.id, passwordHash, session?.id ?? null, deps.clock.now());
  if (!changed) throw new DomainError('UserNoLongerExists');
  return toPublicUser(changed);
}

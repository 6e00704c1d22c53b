import { parseInput, readInput } from '../shared/validation.js';
import type { Credentials } from './credentials.js';
import { authenticate, refusal, type AuthenticateDeps } from './authenticate.js';
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
 *
 * The change applies only if, when it is stored, the caller's token is still accepted and (for a
 * new e-mail) the password is still the one checked; otherwise nothing changes, and the answer is
 * the one the request would have had after whatever got in between (see `changePassword`).
 */
export async function updateAccount(
  deps: UpdateAccountDeps,
  credentials: Credentials,
  input: unknown,
  context: ClientContext = {},
): Promise<PublicUser> {
  const { user, token } = await authenticate(deps, credentials);
  const { name, email, currentPassword } = parseInput(UpdateAccountSchema, await readInput(input));
  // The schema requires `currentPassword` along with `email`.
  if (email !== undefined) await confirmCurrentPassword(deps, user, currentPassword ?? '', context);

  const changes = {
    ...(name !== undefined && { name }),
    ...(email !== undefined && { email }),
    updatedAt: Math.max(deps.clock.now(), user.updatedAt),
  };
  const updated = await deps.users.update(user.id, changes, email === undefined ? { token } : { token, passwordHash: user.passwordHash });
  if (!updated) throw await refusal(deps, credentials, 'CurrentPasswordIncorrect');
  return toPublicUser(updated);
}

import type { Credentials } from './credentials.js';
import { authenticate, type AuthenticateDeps } from './authenticate.js';
import type { PublicSession } from './session.js';

/** What `GET /me/sessions` needs. */
export type ListSessionsDeps = AuthenticateDeps;

/**
 * The account's live sessions, newest first, the caller's own marked `current` (docs/api.md,
 * `GET /me/sessions`): ids and times only, never a token.
 */
export async function listSessions(deps: ListSessionsDeps, credentials: Credentials): Promise<PublicSession[]> {
  const { user, session: own } = await authenticate(deps, credentials);
  const sessions = await deps.users.listSessions(user.id, deps.clock.now());
  return sessions.map(({ id, createdAt, expiresAt }) => ({ id, createdAt, expiresAt, current: id === own?.id }));
}

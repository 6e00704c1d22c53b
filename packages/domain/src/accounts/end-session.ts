import { DomainError } from '../shared/errors.js';
import type { Credentials } from './credentials.js';
import { authenticate, refusal, type AuthenticateDeps } from './authenticate.js';

/** What `DELETE /me/sessions/{id}` needs. */
export type EndSessionDeps = AuthenticateDeps;

/**
 * Ends one live session of the caller's account, the caller's own included (docs/api.md,
 * `DELETE /me/sessions/{id}`). Any id that is not a live session of this account (another
 * account's included) is `SessionNotFound`, and nothing ends. Nothing ends either once the
 * caller's own token is no longer accepted (`InvalidToken`), should another request end its
 * session meanwhile.
 */
export async function endSession(deps: EndSessionDeps, credentials: Credentials, sessionId: string): Promise<void> {
  const { user, token } = await authenticate(deps, credentials);
  const ended = await deps.users.endSessions(user.id, { sessions: { only: sessionId }, tokensWithoutSession: false }, deps.clock.now(), { token });
  if (ended === null) throw await refusal(deps, credentials, 'InvalidToken');
  if (ended === 0) throw new DomainError('SessionNotFound');
}

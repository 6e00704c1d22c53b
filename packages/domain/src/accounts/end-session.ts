import { DomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `endSession` reads: the credentials, and the id of the session to end. */
export type EndSessionRequest = Pick<UseCaseRequest, 'credentials' | 'sessionId'>;

/**
 * Ends one live session of the caller's account, the caller's own included (docs/api.md,
 * `DELETE /me/sessions/{id}`). Any id that is not a live session of this account (another
 * account's included) is `SessionNotFound`, and nothing ends. Nothing ends either once the
 * caller's own token is no longer accepted (`InvalidToken`), should another request end its
 * session meanwhile.
 */
export async function endSession(deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>, request: EndSessionRequest): Promise<void> {
  const { user, token } = await authenticate(deps, request);
  const which = { sessions: { only: request.sessionId }, tokensWithoutSession: false };
  const ended = await deps.users.endSessions(user.id, which, deps.clock.now(), { token });
  if (ended === null) throw await refusal(deps, request, 'InvalidToken');
  if (ended === 0) throw new DomainError('SessionNotFound');
}

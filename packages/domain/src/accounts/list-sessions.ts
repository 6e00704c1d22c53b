import type { AccountDeps } from './account-deps.js';
import { authenticate } from './authenticate.js';
import type { PublicSession } from './session.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `listSessions` reads: the credentials. */
export type ListSessionsRequest = Pick<UseCaseRequest, 'credentials'>;

/**
 * The account's live sessions, newest first, the caller's own marked `current` (docs/api.md,
 * `GET /me/sessions`): ids and times only, never a token.
 */
export async function listSessions(deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>, request: ListSessionsRequest): Promise<PublicSession[]> {
  const { user, session: own } = await authenticate(deps, request);
  const sessions = await deps.users.listSessions(user.id, deps.clock.now());
  return sessions.map(({ id, createdAt, expiresAt }) => ({ id, createdAt, expiresAt, current: id === own?.id }));
}

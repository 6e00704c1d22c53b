import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import { LogOutSchema, type LogoutScope } from './schemas.js';
import type { Session, SessionsToEnd } from './session.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `logOut` reads: the credentials, then the body (`LogOutSchema`; without one, the caller's own session ends). */
export type LogOutRequest = Pick<UseCaseRequest, 'credentials' | 'body'>;

/**
 * Ends the caller's session, every other session of the account, or all of them (docs/api.md,
 * `POST /auth/logout`). The credentials are checked first; only then is the body read and
 * validated (`scope`, `current` when left out). From the answer on, no process
 * accepts a token of an ended session. The sessions end only while the caller's token is still
 * accepted: one whose session another request ended meanwhile ends nothing (`InvalidToken`).
 */
export async function logOut(deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>, request: LogOutRequest): Promise<void> {
  const { user, session, token } = await authenticate(deps, request);
  const { scope } = parseInput(LogOutSchema, await readBody(request.body));
  const ended = await deps.users.endSessions(user.id, sessionsToEnd(scope, session), deps.clock.now(), { token });
  if (ended === null) throw await refusal(deps, request, 'InvalidToken');
}

/**
 * What each scope ends for a caller whose token belongs to `session`. A token without a session
 * cannot be told apart from the account's other such tokens: `current` ends all of them, and
 * `others` ends every session but leaves them.
 */
function sessionsToEnd(scope: LogoutScope, session: Session | null): SessionsToEnd {
  const own = session?.id ?? null;
  switch (scope) {
    case 'current':
      return own === null ? { sessions: 'none', tokensWithoutSession: true } : { sessions: { only: own }, tokensWithoutSession: false };
    case 'others':
      return { sessions: { allExcept: own }, tokensWithoutSession: own !== null };
    case 'all':
      return { sessions: { allExcept: null }, tokensWithoutSession: true };
  }
}

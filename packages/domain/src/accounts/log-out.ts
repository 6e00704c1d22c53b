import { parseInput, readInput } from '../shared/validation.js';
import type { Credentials } from './credentials.js';
import { authenticate, refusal, type AuthenticateDeps } from './authenticate.js';
import { LogOutSchema, type LogoutScope } from './schemas.js';
import type { Session, SessionsToEnd } from './session.js';

/** What `POST /auth/logout` needs. */
export type LogOutDeps = AuthenticateDeps;

/**
 * Ends the caller's session, every other session of the account, or all of them (docs/api.md,
 * `POST /auth/logout`). The credentials are checked first; only then is `input` (the body, or a function
 * that reads it; `{}` when none was sent) read and validated. From the answer on, no process
 * accepts a token of an ended session. The sessions end only while the caller's token is still
 * accepted: one whose session another request ended meanwhile ends nothing (`InvalidToken`).
 */
export async function logOut(deps: LogOutDeps, credentials: Credentials, input: unknown): Promise<void> {
  const { user, session, token } = await authenticate(deps, credentials);
  const { scope } = parseInput(LogOutSchema, await readInput(input));
  const ended = await deps.users.endSessions(user.id, sessionsToEnd(scope, session), deps.clock.now(), { token });
  if (ended === null) throw await refusal(deps, credentials, 'InvalidToken');
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

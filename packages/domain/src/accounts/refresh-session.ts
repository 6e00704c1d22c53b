import { DomainError } from '../shared/errors.js';
import type { Credentials } from './credentials.js';
import { authenticate, type AuthenticateDeps } from './authenticate.js';
import { DEFAULT_SESSION_RULES, sessionExpiry, type SessionRules } from './session.js';
import { signedIn } from './signed-in.js';
import type { SignedIn } from './user.js';

/** What `POST /auth/refresh` needs. */
export interface RefreshSessionDeps extends AuthenticateDeps {
  /** How long a session may live in all; `DEFAULT_SESSION_RULES` when omitted. */
  readonly sessionRules?: SessionRules;
}

/**
 * A new 7-day token of the caller's session (docs/api.md, `POST /auth/refresh`): the session then
 * lives until that token expires, but never past its login plus the maximum age; past that its
 * tokens are `InvalidToken`, refresh included. Older tokens of the session keep working until
 * their own expiry or the session's end. A token without a session starts one, aged from the
 * token's issue, so it cannot outlive the maximum age either.
 */
export async function refreshSession(deps: RefreshSessionDeps, credentials: Credentials): Promise<SignedIn> {
  const { user, session, tokenIssuedAt } = await authenticate(deps, credentials);
  const rules = deps.sessionRules ?? DEFAULT_SESSION_RULES;
  const now = deps.clock.now();
  const startedAt = session?.createdAt ?? tokenIssuedAt;
  const expiresAt = sessionExpiry(startedAt, now, rules);
  if (expiresAt <= now) throw new DomainError('InvalidToken');

  const refreshed = session
    ? await deps.users.extendSession(user.id, session.id, expiresAt, now)
    : await deps.users.startSession(user.id, { createdAt: startedAt, expiresAt }, rules.maxPerUser, now);
  // Ended (or the account deleted) between the check and now.
  if (!refreshed) throw new DomainError('InvalidToken');
  return signedIn(deps.tokens, user, refreshed, now);
}

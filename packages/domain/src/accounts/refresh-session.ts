import { DomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { authenticate, refusal } from './authenticate.js';
import { DEFAULT_SESSION_RULES, sessionExpiry } from './session.js';
import { signedIn } from './signed-in.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { SignedIn } from './user.js';

/** What `refreshSession` reads: the credentials. */
export type RefreshSessionRequest = Pick<UseCaseRequest, 'credentials'>;

/**
 * A new 7-day token of the caller's session (docs/api.md, `POST /auth/refresh`): the session then
 * lives until that token expires, but never past its login plus the maximum age; past that its
 * tokens are `InvalidToken`, refresh included. Older tokens of the session keep working until
 * their own expiry or the session's end.
 *
 * A token without a session is exchanged for one, aged from the token's issue (so it cannot
 * outlive the maximum age either): the session starts only while the token is still accepted,
 * and in the same step every token without a session ends, as a logout of one of them would end
 * them all (they cannot be told apart). So such a token starts at most one session, and none
 * after the account ended them. A session that ended (or an account deleted) between the check
 * and the write answers as it would have after: `InvalidToken` (or `UserNoLongerExists`).
 */
export async function refreshSession(
  deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock' | 'sessionRules'>,
  request: RefreshSessionRequest,
): Promise<SignedIn> {
  const { user, session, token } = await authenticate(deps, request);
  const rules = deps.sessionRules ?? DEFAULT_SESSION_RULES;
  const now = deps.clock.now();
  const startedAt = session?.createdAt ?? token.issuedAt;
  const expiresAt = sessionExpiry(startedAt, now, rules);
  if (expiresAt <= now) throw new DomainError('InvalidToken');

  const refreshed = session
    ? await deps.users.extendSession(user.id, session.id, expiresAt, now)
    : await deps.users.exchangeTokenWithoutSession(user.id, token.issuedAt, { createdAt: startedAt, expiresAt }, rules.maxPerUser, now);
  if (!refreshed) throw await refusal(deps, request, 'InvalidToken');
  return signedIn(deps.tokens, user, refreshed, now);
}

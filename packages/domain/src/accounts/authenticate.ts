import { DomainError, type DomainErrorCode } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { NO_CREDENTIALS } from './credentials.js';
import type { TokenClaims, UserWithSession } from './ports.js';
import { acceptsTokenWithoutSession, type Session } from './session.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { User } from './user.js';

/** What checking a token needs: the tokens, the users with their sessions, and the time. */
export type AuthenticateDeps = Pick<AccountDeps, 'users' | 'tokens' | 'clock'>;

/** What `authenticate` reads of a request: its credentials. */
export type AuthenticateRequest = Pick<UseCaseRequest, 'credentials'>;

/** An account whose token checked out, with the session the token belongs to (null for a token without one). */
export interface Authenticated {
  readonly user: User;
  readonly session: Session | null;
  /** What the token says: a write made on its strength requires it still accepted (`Verified`). */
  readonly token: TokenClaims;
}

/**
 * The account whose token was presented, by the `GET /me` rules in their order (docs/api.md,
 * `GET /me` and Sessions): no credentials, or credentials that are not a bearer token, are
 * `MissingAuthorization`; a token that fails verification is `InvalidToken`; a valid token whose
 * user is gone (or being deleted) is `UserNoLongerExists`; a token of a session that ended,
 * expired or never existed is `InvalidToken`, and so is a token without a session once the
 * account ended those. The user and the session are one read, so the check costs what looking
 * the user up alone did, and nothing is cached: a session ended on any process is refused on the
 * very next request.
 */
export async function authenticate(
  deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>,
  request: AuthenticateRequest,
): Promise<Authenticated> {
  const credentials = request.credentials ?? NO_CREDENTIALS;
  if (credentials.scheme !== 'bearer') throw new DomainError('MissingAuthorization');

  const claims = await deps.tokens.verify(credentials.token);
  if (claims === null) throw new DomainError('InvalidToken');

  return checkedOut(claims, await deps.users.findWithSession(claims.userId, claims.sessionId, deps.clock.now()));
}

/**
 * The account a token that verified (`claims`) names, checked again by the rest of the `GET /me`
 * rules, now: for a write that stored something on the strength of the token and must know the
 * token still checks out afterwards, without verifying its signature twice.
 */
export async function stillAuthenticated(deps: AuthenticateDeps, claims: TokenClaims): Promise<Authenticated> {
  return checkedOut(claims, await deps.users.findWithSession(claims.userId, claims.sessionId, deps.clock.now()));
}

/** What the account and session read for `claims` say: `UserNoLongerExists`, `InvalidToken`, or the account. */
function checkedOut(claims: TokenClaims, found: UserWithSession | null): Authenticated {
  if (!found) throw new DomainError('UserNoLongerExists');
  if (!isLive(claims, found)) throw new DomainError('InvalidToken');
  return { user: found.user, session: found.session, token: claims };
}

/**
 * Why a write refused what its request had verified (`Verified`): what checking the token again
 * answers now (the account gone or being deleted, the token's session ended), or else
 * `otherwise`, the answer of the check that no longer holds (a replaced password). So the request
 * answers what it would have, had it started after the change that got in its way.
 */
export async function refusal(deps: AuthenticateDeps, request: AuthenticateRequest, otherwise: DomainErrorCode): Promise<DomainError> {
  try {
    await authenticate(deps, request);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  return new DomainError(otherwise);
}

/** Whether the token's session is live, or, for a token without one, whether the account still accepts it. */
function isLive(claims: TokenClaims, found: UserWithSession): boolean {
  if (claims.sessionId !== null) return found.session !== null;
  return acceptsTokenWithoutSession(found, claims.issuedAt);
}

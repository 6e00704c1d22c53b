import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import type { Credentials } from './credentials.js';
import type { TokenClaims, TokenService, UserRepository, UserWithSession } from './ports.js';
import type { Session } from './session.js';
import type { User } from './user.js';

/** What checking a token needs: the tokens, the users with their sessions, and the time. */
export interface AuthenticateDeps {
  readonly users: UserRepository;
  readonly tokens: TokenService;
  readonly clock: Clock;
}

/** An account whose token checked out, with the session the token belongs to (null for a token without one). */
export interface Authenticated {
  readonly user: User;
  readonly session: Session | null;
  /** When the token was issued, in milliseconds. */
  readonly tokenIssuedAt: number;
}

/**
 * The account whose token was presented, by the `GET /me` rules in their order (docs/api.md,
 * `GET /me` and Sessions): no credentials, or credentials that are not a bearer token, are
 * `MissingAuthorization`; a token that fails verification is `InvalidToken`; a valid token whose user is gone is `UserNoLongerExists`;
 * a token of a session that ended, expired or never existed is `InvalidToken`, and so is a token
 * without a session once the account ended those. The user and the session are one read, so the
 * check costs what looking the user up alone did, and nothing is cached: a session ended on any
 * process is refused on the very next request.
 */
export async function authenticate(deps: AuthenticateDeps, credentials: Credentials): Promise<Authenticated> {
  if (credentials.scheme !== 'bearer') throw new DomainError('MissingAuthorization');

  const claims = await deps.tokens.verify(credentials.token);
  if (claims === null) throw new DomainError('InvalidToken');

  const found = await deps.users.findWithSession(claims.userId, claims.sessionId, deps.clock.now());
  if (!found) throw new DomainError('UserNoLongerExists');
  if (!isLive(claims, found)) throw new DomainError('InvalidToken');

  return { user: found.user, session: found.session, tokenIssuedAt: claims.issuedAt };
}

/**
 * Whether the token's session is live, or, for a token without one, whether it was issued after
 * the account last ended such tokens (a token carries whole seconds, so one from the very second
 * they ended counts as ended: no token without a session is issued any more).
 */
function isLive(claims: TokenClaims, found: UserWithSession): boolean {
  if (claims.sessionId !== null) return found.session !== null;
  return found.tokensWithoutSessionEndedAt === null || claims.issuedAt > found.tokensWithoutSessionEndedAt;
}

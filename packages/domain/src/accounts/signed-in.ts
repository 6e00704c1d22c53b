import type { TokenService } from './ports.js';
import { TOKEN_LIFETIME_MS, type Session } from './session.js';
import { toPublicUser, type SignedIn, type User } from './user.js';

/** The answer of signup, login and refresh: a new 7-day token of `session`, issued `now`, and the user. */
export async function signedIn(tokens: TokenService, user: User, session: Session, now: number): Promise<SignedIn> {
  const token = await tokens.issue({ userId: user.id, sessionId: session.id, issuedAt: now, expiresAt: now + TOKEN_LIFETIME_MS });
  return { token, user: toPublicUser(user) };
}

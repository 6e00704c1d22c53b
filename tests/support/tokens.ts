import { TOKEN_LIFETIME_MS, type Clock } from '@inkwell/domain';
import { createJoseTokenService } from '@inkwell/app';
import { SignJWT, decodeJwt } from 'jose';
import { TEST_JWT_SECRET } from './fixtures.js';

/** A well-formed user id that no store has issued: a valid token naming it is a user who is gone. */
export const GONE_USER_ID = '000000000000000000000bad';

/** A session id no store has issued: a valid token naming it (for a user who exists) is `Invalid token`. */
export const UNKNOWN_SESSION_ID = 'no-such-session';

/**
 * A 7-day token for `userId` and session `sessionId` (by default one that no store has), issued
 * at `clock`'s now, signed with `secret` (the test servers' own by default, so its signature
 * verifies there; `FOREIGN_JWT_SECRET` for one they must refuse as `Invalid token`).
 */
export async function issueToken(
  userId: string,
  clock: Clock,
  { secret = TEST_JWT_SECRET, sessionId = UNKNOWN_SESSION_ID }: { secret?: string; sessionId?: string } = {},
): Promise<string> {
  const issuedAt = clock.now();
  return (await createJoseTokenService(secret, clock)).issue({ userId, sessionId, issuedAt, expiresAt: issuedAt + TOKEN_LIFETIME_MS });
}

/**
 * A token as inkwell issued them before tokens named sessions: `sub`, `iat` (`issuedAt`, by
 * default `clock`'s now) and a 7-day `exp`, no `sid`.
 */
export async function issueTokenWithoutSession(userId: string, clock: Clock, issuedAt = clock.now()): Promise<string> {
  const iat = Math.floor(issuedAt / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_MS / 1000)
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

/** The session a token names (its `sid`), read without verifying it; undefined for a token without one. */
export function sessionIdOf(token: string): string | undefined {
  const { sid } = decodeJwt(token);
  return typeof sid === 'string' ? sid : undefined;
}

import type { Clock, TokenService } from '@inkwell/domain';
import { SignJWT, jwtVerify } from 'jose';

const ALGORITHM = 'HS256';

/**
 * HS256 tokens with `sub` (the user), `sid` (the session), `iat` and `exp` (docs/api.md, Tokens):
 * the domain says when a token is issued and when it expires (7 days on), this adapter signs and
 * checks. The key is imported once as a CryptoKey, which verifies markedly faster than handing jose
 * the raw secret each time. Anything but a well-formed, unexpired HS256 token with a string `sub`
 * verifies as null; a token without `sid` (issued before tokens named sessions) verifies with a
 * null session, and one whose `sid` is not a non-empty string fails.
 */
export async function createJoseTokenService(secret: string, clock: Clock): Promise<TokenService> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );

  return {
    async issue({ userId, sessionId, issuedAt, expiresAt }) {
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(Math.floor(issuedAt / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          requiredClaims: ['sub', 'exp'],
          currentDate: new Date(clock.now()),
        });
        const { sub, sid, iat } = payload;
        if (typeof sub !== 'string') return null;
        if (sid !== undefined && (typeof sid !== 'string' || sid === '')) return null;
        return { userId: sub, sessionId: sid ?? null, issuedAt: typeof iat === 'number' ? iat * 1000 : 0 };
      } catch {
        return null;
      }
    },
  };
}

import type { Clock, TokenService } from '@inkwell/domain';
import { SignJWT, jwtVerify } from 'jose';

/** Spec 5: tokens live 7 days. */
export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const ALGORITHM = 'HS256';

/**
 * HS256 tokens with `sub`, `iat` and `exp = iat + 7 days` (docs/api.md). The key is imported
 * once as a CryptoKey, which verifies markedly faster than handing jose the raw secret each time.
 * Anything but a well-formed, unexpired HS256 token with a string `sub` verifies as null.
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
    async issue(userId) {
      const issuedAt = Math.floor(clock.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          requiredClaims: ['sub', 'exp'],
          currentDate: new Date(clock.now()),
        });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

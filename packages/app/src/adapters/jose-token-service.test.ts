import { manualClock } from '@inkwell/domain/testing';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_MS, type Clock, type TokenService } from '@inkwell/domain';
import { createJoseTokenService } from './jose-token-service.js';

const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long';
const OTHER_SECRET = 'another-test-secret-that-is-32-bytes-or-more';
const T0 = Date.UTC(2026, 0, 1); // a whole second
const T0_SECONDS = T0 / 1000;
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

async function setup(start = T0) {
  const clock = manualClock(start);
  const tokens = await createJoseTokenService(SECRET, clock);
  return { clock, tokens };
}

/** A token of `userId`'s session `sessionId`, issued at `clock`'s now for the domain's 7 days, as the use cases ask for one. */
function issue(tokens: TokenService, clock: Clock, userId: string, sessionId = 'session-1'): Promise<string> {
  const issuedAt = clock.now();
  return tokens.issue({ userId, sessionId, issuedAt, expiresAt: issuedAt + TOKEN_LIFETIME_MS });
}

/** The user a token names, or null when it fails. */
async function subOf(tokens: TokenService, token: string): Promise<string | null> {
  return (await tokens.verify(token))?.userId ?? null;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A JWS built by hand, so header and claims can be anything. */
function handSigned(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  { secret = SECRET, hash = 'sha256' }: { secret?: string; hash?: string } = {},
): string {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  return `${signingInput}.${createHmac(hash, secret).update(signingInput).digest('base64url')}`;
}

const validClaims = { sub: 'user-1', sid: 'session-1', iat: T0_SECONDS, exp: T0_SECONDS + 604_800 };

describe('createJoseTokenService', () => {
  describe('issue', () => {
    it('issues an HS256 JWT whose claims are exactly sub, sid, iat and exp = iat + 7 days', async () => {
      const { clock, tokens } = await setup();
      const token = await issue(tokens, clock, 'user-1');
      expect(token.split('.')).toHaveLength(3);
      expect(decodeProtectedHeader(token)).toStrictEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwt(token);
      expect(claims).toStrictEqual({ sub: 'user-1', sid: 'session-1', iat: T0_SECONDS, exp: T0_SECONDS + 604_800 });
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(604_800);
      expect(TOKEN_LIFETIME_MS).toBe(604_800_000);
    });

    it('takes iat and exp from the times it is given, rounded down to the second', async () => {
      const { clock, tokens } = await setup(T0 + 999);
      expect(decodeJwt(await issue(tokens, clock, 'u')).iat).toBe(T0_SECONDS);
      clock.advance(3 * 86_400_000 + 1);
      const claims = decodeJwt(await issue(tokens, clock, 'u'));
      expect(claims.iat).toBe(T0_SECONDS + 3 * 86_400 + 1);
      expect(claims.exp).toBe(T0_SECONDS + 3 * 86_400 + 1 + 604_800);
    });

    it('signs with the secret: the signature is HMAC-SHA256 over header.payload', async () => {
      const { tokens } = await setup();
      const [header, payload, signature] = (await issue(tokens, manualClock(T0), 'user-1')).split('.');
      expect(createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
    });
  });

  describe('verify', () => {
    it('returns the sub, the sid and the issue time of a fresh token', async () => {
      const { clock, tokens } = await setup(T0 + 999);
      expect(await tokens.verify(await issue(tokens, clock, 'user-1'))).toStrictEqual({ userId: 'user-1', sessionId: 'session-1', issuedAt: T0 });
    });

    it('returns any string sub and sid unchanged', async () => {
      const { clock, tokens } = await setup();
      for (const id of ['0123456789abcdef01234567', 'ünï 🎉', '{"$ne":null}']) {
        expect(await tokens.verify(await issue(tokens, clock, id, id))).toMatchObject({ userId: id, sessionId: id });
      }
    });

    it('accepts a token without sid (issued before tokens named sessions) with a null session', async () => {
      const { tokens } = await setup();
      const { sub, iat, exp } = validClaims;
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, { sub, iat, exp }))).toStrictEqual({
        userId: 'user-1',
        sessionId: null,
        issuedAt: T0,
      });
    });

    it.each([42, null, '', ['s'], { id: 's' }, true])('refuses a token whose sid is %j', async (sid) => {
      const { tokens } = await setup();
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, { ...validClaims, sid }))).toBeNull();
    });

    it('accepts a hand-signed HS256 token with the right secret (the control for the forgeries below)', async () => {
      const { tokens } = await setup();
      expect(await subOf(tokens, handSigned({ alg: 'HS256', typ: 'JWT' }, validClaims))).toBe('user-1');
      expect(await subOf(tokens, handSigned({ alg: 'HS256' }, validClaims))).toBe('user-1');
    });

    describe('expiry (jose: expired once now >= exp, in whole seconds)', () => {
      it('still accepts a token one second before exp', async () => {
        const { clock, tokens } = await setup();
        const token = await issue(tokens, clock, 'user-1');
        clock.advance(SEVEN_DAYS_MS - 1000);
        expect(await subOf(tokens, token)).toBe('user-1');
      });

      it('still accepts a token 1 ms before exp (now rounds down to exp - 1)', async () => {
        const { clock, tokens } = await setup();
        const token = await issue(tokens, clock, 'user-1');
        clock.advance(SEVEN_DAYS_MS - 1);
        expect(await subOf(tokens, token)).toBe('user-1');
      });

      it('refuses a token exactly at exp', async () => {
        const { clock, tokens } = await setup();
        const token = await issue(tokens, clock, 'user-1');
        clock.advance(SEVEN_DAYS_MS);
        expect(await tokens.verify(token)).toBeNull();
      });

      it('refuses a token 7 days and 1 second after issue', async () => {
        const { clock, tokens } = await setup();
        const token = await issue(tokens, clock, 'user-1');
        clock.advance(SEVEN_DAYS_MS + 1000);
        expect(await tokens.verify(token)).toBeNull();
      });

      it('uses the injected clock, not the wall clock, to judge expiry', async () => {
        // Issued (by the clock) in 2001: long expired by the wall clock, fresh by the injected one.
        const { clock, tokens } = await setup(Date.UTC(2001, 0, 1));
        expect(await subOf(tokens, await issue(tokens, clock, 'user-1'))).toBe('user-1');
      });
    });

    it('refuses a token signed with another secret', async () => {
      const { clock, tokens } = await setup();
      const other = await createJoseTokenService(OTHER_SECRET, clock);
      expect(await tokens.verify(await issue(other, clock, 'user-1'))).toBeNull();
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, validClaims, { secret: OTHER_SECRET }))).toBeNull();
    });

    it('refuses an unsigned alg "none" token', async () => {
      const { tokens } = await setup();
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(validClaims)}.`;
      expect(await tokens.verify(unsigned)).toBeNull();
      // The same with the HS256 signature of the claims appended does not pass either.
      const withSignature = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(validClaims)}.${
        handSigned({ alg: 'HS256', typ: 'JWT' }, validClaims).split('.')[2]
      }`;
      expect(await tokens.verify(withSignature)).toBeNull();
    });

    it('refuses an HS512 token signed with the same secret', async () => {
      const { tokens } = await setup();
      expect(await tokens.verify(handSigned({ alg: 'HS512', typ: 'JWT' }, validClaims, { hash: 'sha512' }))).toBeNull();
      const viaJose = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS512' })
        .setSubject('user-1')
        .setIssuedAt(T0_SECONDS)
        .setExpirationTime(T0_SECONDS + 3600)
        .sign(new TextEncoder().encode(SECRET));
      expect(await tokens.verify(viaJose)).toBeNull();
    });

    it('refuses a token without exp', async () => {
      const { tokens } = await setup();
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, { sub: 'user-1', iat: T0_SECONDS }))).toBeNull();
    });

    it('refuses a token whose exp is not a number', async () => {
      const { tokens } = await setup();
      const claims = { sub: 'user-1', iat: T0_SECONDS, exp: String(T0_SECONDS + 3600) };
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, claims))).toBeNull();
    });

    it('refuses a token without sub', async () => {
      const { tokens } = await setup();
      const { iat, exp } = validClaims;
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, { iat, exp }))).toBeNull();
    });

    it.each([42, null, ['user-1'], { id: 'user-1' }, true])('refuses a token whose sub is %j', async (sub) => {
      const { tokens } = await setup();
      expect(await tokens.verify(handSigned({ alg: 'HS256', typ: 'JWT' }, { ...validClaims, sub }))).toBeNull();
    });

    it('refuses a token whose payload was tampered with', async () => {
      const { clock, tokens } = await setup();
      const [header, , signature] = (await issue(tokens, clock, 'user-1')).split('.');
      const forged = `${header}.${base64url({ ...validClaims, sub: 'admin' })}.${signature}`;
      expect(await tokens.verify(forged)).toBeNull();
    });

    it('refuses a token whose signature was altered', async () => {
      const { clock, tokens } = await setup();
      const [header, payload, signature = ''] = (await issue(tokens, clock, 'user-1')).split('.');
      // Change the first character: the last one may only carry padding bits.
      const altered = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      expect(await tokens.verify(`${header}.${payload}.${altered}`)).toBeNull();
      expect(await tokens.verify(`${header}.${payload}.`)).toBeNull();
    });

    it.each(['', 'a.b', 'not-a-token', 'a.b.c', '...', 'Bearer x.y.z', ' '])('refuses the malformed token %j', async (token) => {
      const { tokens } = await setup();
      expect(await tokens.verify(token)).toBeNull();
    });

    it('refuses a valid token with surrounding whitespace or a fourth part', async () => {
      const { clock, tokens } = await setup();
      const token = await issue(tokens, clock, 'user-1');
      expect(await tokens.verify(` ${token}`)).toBeNull();
      expect(await tokens.verify(`${token}.x`)).toBeNull();
    });
  });
});

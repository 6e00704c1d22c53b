import type { PublicUser } from '@inkwell/domain';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { SEVEN_DAYS_MS, TEST_JWT_SECRET, alice, FOREIGN_JWT_SECRET } from '../support/fixtures.js';
import { issueToken } from '../support/tokens.js';
import { expectError, expectJson, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signup, login, `GET /me` and the tokens (docs/api.md: Accounts, Tokens, Conventions). */
export function describeAccountsApi(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  describe('POST /auth/signup', () => {
    it('answers 201 with a token and exactly { id, email, name }', async () => {
      const res = await api().send('POST', '/auth/signup', alice);
      const body = (await expectJson(res, 201, {
        token: expect.any(String),
        user: { id: expect.any(String), email: 'alice@example.com', name: 'Alice' },
      })) as { token: string; user: PublicUser };
      expect(body.user.id.length).toBeGreaterThan(0);
      expect(body.token.split('.')).toHaveLength(3);
    });

    it('stores the e-mail trimmed and lower-cased', async () => {
      const { user, token } = await api().signUp({ email: ' Alice@Example.COM ' });
      expect(user.email).toBe('alice@example.com');
      await expectJson(await api().me(token), 200, { user: { id: user.id, email: 'alice@example.com', name: 'Alice' } });
      await expectJson(
        await api().send('POST', '/auth/login', { email: 'alice@example.com', password: alice.password }),
        200,
        { token: expect.any(String), user },
      );
    });

    it('keeps the name as sent, spaces included (only the e-mail is trimmed)', async () => {
      const { user } = await api().signUp({ name: '  Bob  ' });
      expect(user.name).toBe('  Bob  ');
    });

    it('answers 409 for an e-mail already in use, also in another case, and keeps the first account', async () => {
      const { user } = await api().signUp();
      await expectError(await api().send('POST', '/auth/signup', { ...alice, name: 'Mallory' }), 409, 'Email already in use');
      await expectError(
        await api().send('POST', '/auth/signup', { ...alice, email: '  ALICE@example.Com', password: 'another password' }),
        409,
        'Email already in use',
      );
      await expectError(
        await api().send('POST', '/auth/login', { email: alice.email, password: 'another password' }),
        401,
        'Invalid email or password',
      );
      await expectJson(await api().send('POST', '/auth/login', alice), 200, { token: expect.any(String), user });
    });

    it('lets exactly one of 20 concurrent signups with one e-mail win; the other 19 get 409', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api().send('POST', '/auth/signup', { email: 'race@example.com', name: `Racer ${i}`, password: `password-${i}` }),
        ),
      );
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      const winner = responses.findIndex((res) => res.status === 201);
      for (const [i, res] of responses.entries()) {
        if (i === winner) await expectJson(res, 201, { token: expect.any(String), user: expect.any(Object) });
        else await expectError(res, 409, 'Email already in use');
      }
      await expectJson(
        await api().send('POST', '/auth/login', { email: 'race@example.com', password: `password-${winner}` }),
        200,
        { token: expect.any(String), user: { id: expect.any(String), email: 'race@example.com', name: `Racer ${winner}` } },
      );
    });

    it('ignores id, createdAt, updatedAt, passwordHash and unknown fields in the body', async () => {
      const res = await api().send('POST', '/auth/signup', {
        ...alice,
        id: 'chosen-id',
        createdAt: 1,
        updatedAt: 2,
        passwordHash: 'fake-hash:hijacked password',
        role: 'admin',
      });
      const { user } = (await expectJson(res, 201, {
        token: expect.any(String),
        user: { id: expect.any(String), email: alice.email, name: alice.name },
      })) as { user: PublicUser };
      expect(user.id).not.toBe('chosen-id');
      await expectError(
        await api().send('POST', '/auth/login', { email: alice.email, password: 'hijacked password' }),
        401,
        'Invalid email or password',
      );
      await expectJson(await api().send('POST', '/auth/login', alice), 200, { token: expect.any(String), user });
    });

    describe('validation: 400 Validation failed listing every problem', () => {
      it('names every missing field', async () => {
        await expectValidationFailure(await api().send('POST', '/auth/signup', {}), ['email', 'name', 'password']);
      });

      it('names every invalid field at once', async () => {
        await expectValidationFailure(
          await api().send('POST', '/auth/signup', { email: 'not-an-email', name: '', password: 'short' }),
          ['email', 'name', 'password'],
        );
      });

      it('names every field of the wrong type', async () => {
        await expectValidationFailure(
          await api().send('POST', '/auth/signup', { email: 42, name: ['Alice'], password: { value: 'x' } }),
          ['email', 'name', 'password'],
        );
        await expectValidationFailure(
          await api().send('POST', '/auth/signup', { email: null, name: null, password: null }),
          ['email', 'name', 'password'],
        );
      });

      it.each([
        ['an e-mail without @', 'alice.example.com'],
        ['an empty e-mail', ''],
        ['an e-mail of spaces only', '   '],
        ['an e-mail with an inner space', 'al ice@example.com'],
        ['an e-mail of 255 characters', `${'a'.repeat(243)}@example.com`],
      ])('refuses %s', async (_label, email) => {
        await expectValidationFailure(await api().send('POST', '/auth/signup', { ...alice, email }), ['email']);
      });

      it.each([
        ['a name of 1 character', 'A'],
        ['a name of 100 characters', 'n'.repeat(100)],
        ['a name of one space', ' '],
      ])('accepts %s', async (_label, name) => {
        const { user } = await api().signUp({ name });
        expect(user.name).toBe(name);
      });

      it.each([
        ['an empty name', ''],
        ['a name of 101 characters', 'n'.repeat(101)],
      ])('refuses %s', async (_label, name) => {
        await expectValidationFailure(await api().send('POST', '/auth/signup', { ...alice, name }), ['name']);
      });

      it.each([
        ['8 characters', 'p'.repeat(8)],
        ['72 characters', 'p'.repeat(72)],
        ['72 UTF-8 bytes (36 × é)', 'é'.repeat(36)],
      ])('accepts a password of %s, and it logs in', async (_label, password) => {
        const { user } = await api().signUp({ password });
        await expectJson(await api().send('POST', '/auth/login', { email: alice.email, password }), 200, {
          token: expect.any(String),
          user,
        });
      });

      it.each([
        ['7 characters', 'Sh0rt!x'],
        ['73 characters', `TooLongSecret-${'q'.repeat(59)}`],
        ['73 UTF-8 bytes in 37 characters', `a${'é'.repeat(36)}`],
        ['74 UTF-8 bytes in 37 characters (37 × é)', 'é'.repeat(37)],
        ['an empty string', ''],
      ])('refuses a password of %s and never echoes it', async (_label, password) => {
        const text = await expectValidationFailure(await api().send('POST', '/auth/signup', { ...alice, password }), [
          'password',
        ]);
        if (password.length > 0) expect(text).not.toContain(password);
      });

      it('validates before any look-up: a taken e-mail with an invalid body is 400, not 409', async () => {
        await api().signUp();
        await expectValidationFailure(await api().send('POST', '/auth/signup', { ...alice, password: 'short' }), [
          'password',
        ]);
      });
    });
  });

  describe('POST /auth/login', () => {
    it('answers 200 with a token and exactly { id, email, name }', async () => {
      const { user } = await api().signUp();
      const res = await api().send('POST', '/auth/login', { email: alice.email, password: alice.password });
      const body = (await expectJson(res, 200, { token: expect.any(String), user })) as { token: string };
      await expectJson(await api().me(body.token), 200, { user });
    });

    it('trims and lower-cases the e-mail before the look-up', async () => {
      const { user } = await api().signUp();
      await expectJson(
        await api().send('POST', '/auth/login', { email: '  ALICE@Example.com ', password: alice.password }),
        200,
        { token: expect.any(String), user },
      );
    });

    it('answers 401 Invalid email or password for an unknown e-mail and for a wrong password', async () => {
      await api().signUp();
      await expectError(
        await api().send('POST', '/auth/login', { email: 'bob@example.com', password: alice.password }),
        401,
        'Invalid email or password',
      );
      await expectError(
        await api().send('POST', '/auth/login', { email: alice.email, password: 'wrong password' }),
        401,
        'Invalid email or password',
      );
      await expectError(
        await api().send('POST', '/auth/login', { email: alice.email, password: alice.password.toUpperCase() }),
        401,
        'Invalid email or password',
      );
    });

    local.it('checks a password hash for an unknown e-mail too, so both failures cost the same', async () => {
      await api().signUp();
      const before = api().hasher.calls.verify;
      await api().send('POST', '/auth/login', { email: 'nobody@example.com', password: 'whatever1' });
      expect(api().hasher.calls.verify).toBe(before + 1);
      await api().send('POST', '/auth/login', { email: alice.email, password: 'whatever1' });
      expect(api().hasher.calls.verify).toBe(before + 2);
    });

    it.each([
      ['a missing password', { email: alice.email }, ['password']],
      ['an empty password', { email: alice.email, password: '' }, ['password']],
      ['an e-mail that is not a string', { email: 42, password: 'x' }, ['email']],
      ['an e-mail that is not an address', { email: 'alice', password: 'x' }, ['email']],
      ['an empty body object', {}, ['email', 'password']],
      ['a password that is not a string', { email: alice.email, password: 12345678 }, ['password']],
    ])('answers 400 Validation failed for %s', async (_label, body, paths) => {
      await expectValidationFailure(await api().send('POST', '/auth/login', body), paths);
    });

    it('does not apply signup limits to login: a short password is just wrong, 401', async () => {
      await api().signUp();
      await expectError(
        await api().send('POST', '/auth/login', { email: alice.email, password: 'x' }),
        401,
        'Invalid email or password',
      );
    });
  });

  describe('GET /me', () => {
    it('answers 200 { user } for the token of signup', async () => {
      const { token, user } = await api().signUp();
      await expectJson(await api().me(token), 200, { user: { id: user.id, email: alice.email, name: alice.name } });
    });

    local.it('issues HS256 tokens with sub = user id, iat = now and exp = iat + 7 days', async () => {
      const { token, user } = await api().signUp();
      expect(decodeProtectedHeader(token).alg).toBe('HS256');
      const claims = decodeJwt(token);
      expect(claims.sub).toBe(user.id);
      expect(claims.iat).toBe(Math.floor(api().clock.now() / 1000));
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(604_800);

      const login = (await (await api().send('POST', '/auth/login', alice)).json()) as { token: string };
      expect(decodeJwt(login.token).sub).toBe(user.id);
    });

    it.each([
      ['no header', undefined],
      ['an empty header', ''],
      ['lower-case bearer', 'bearer x'],
      ['upper-case BEARER', 'BEARER x'],
      ['Basic', 'Basic YWxpY2U6cGFzc3dvcmQ='],
      ['Bearer without the space', 'Bearerx'],
      ['another scheme named like Bearer', 'Bearers x'],
      ['a bare token', 'eyJhbGciOiJIUzI1NiJ9.e30.x'],
    ])('answers 401 Missing authorization header for %s', async (_label, header) => {
      const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
      await expectError(await api().request('/me', { headers }), 401, 'Missing authorization header');
    });

    it('answers 401 Missing authorization header for a Bearer token sent in lower case with a real token', async () => {
      const { token } = await api().signUp();
      await expectError(
        await api().request('/me', { headers: { authorization: `bearer ${token}` } }),
        401,
        'Missing authorization header',
      );
    });

    it.each([
      ['Bearer followed by nothing', 'Bearer '],
      ['Bearer followed by spaces only', 'Bearer    '],
      ['garbage', 'Bearer garbage'],
      ['two parts', 'Bearer abc.def'],
      ['four parts', 'Bearer a.b.c.d'],
      ['empty parts', 'Bearer ..'],
      ['a token after two spaces', 'Bearer  x.y.z'],
    ])('answers 401 Invalid token for %s', async (_label, header) => {
      await expectError(await api().request('/me', { headers: { authorization: header } }), 401, 'Invalid token');
    });

    it('answers 401 Invalid token for tokens that are not three base64url parts', async () => {
      const { token } = await api().signUp();
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const standardBase64 = Buffer.from(signature, 'base64url').toString('base64');
      for (const bad of [
        `${token}.extra`,
        `${header}.${payload}`,
        `${header}.${payload}.${signature}==`,
        `${header}.${payload}.${standardBase64}${standardBase64.includes('+') || standardBase64.includes('/') ? '' : '+'}`,
        `${header}!.${payload}.${signature}`,
        ` ${token}`,
      ]) {
        await expectError(await api().me(bad), 401, 'Invalid token');
      }
    });

    it('answers 401 Invalid token for a token with a changed payload', async () => {
      const { token } = await api().signUp();
      const other = await api().signUp({ email: 'bob@example.com', name: 'Bob' });
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const forged = b64url({ ...decodeJwt(token), sub: other.user.id });
      expect(forged).not.toBe(payload);
      await expectError(await api().me(`${header}.${forged}.${signature}`), 401, 'Invalid token');
    });

    it('answers 401 Invalid token for a token signed with another secret', async () => {
      const { user } = await api().signUp();
      await expectError(await api().me(await issueToken(user.id, api().clock, { secret: FOREIGN_JWT_SECRET })), 401, 'Invalid token');
    });

    local.it('answers 401 Invalid token once the token is older than 7 days, and 200 just before', async () => {
      const { token, user } = await api().signUp();
      api().clock.advance(SEVEN_DAYS_MS - 1000);
      await expectJson(await api().me(token), 200, { user });
      api().clock.advance(2000); // 7 days + 1 s after issue
      await expectError(await api().me(token), 401, 'Invalid token');
    });

    it('answers 401 Invalid token for alg: none', async () => {
      const { user } = await api().signUp();
      const iat = Math.floor(api().clock.now() / 1000);
      const payload = b64url({ sub: user.id, iat, exp: iat + 604_800 });
      for (const alg of ['none', 'None', 'NONE']) {
        const header = b64url({ alg, typ: 'JWT' });
        await expectError(await api().me(`${header}.${payload}.`), 401, 'Invalid token');
      }
    });

    it('answers 401 Invalid token for another algorithm with the right secret (HS512, HS384)', async () => {
      const { user } = await api().signUp();
      const secret = new TextEncoder().encode(TEST_JWT_SECRET);
      const iat = Math.floor(api().clock.now() / 1000);
      for (const alg of ['HS512', 'HS384']) {
        const token = await new SignJWT({})
          .setProtectedHeader({ alg })
          .setSubject(user.id)
          .setIssuedAt(iat)
          .setExpirationTime(iat + 3600)
          .sign(secret);
        await expectError(await api().me(token), 401, 'Invalid token');
      }
    });

    it('answers 401 Invalid token for a right-secret HS256 token without exp, with a past exp, or without sub', async () => {
      const { user } = await api().signUp();
      const secret = new TextEncoder().encode(TEST_JWT_SECRET);
      const iat = Math.floor(api().clock.now() / 1000);
      const sign = (claims: { sub?: string; exp?: number }) => {
        const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(iat);
        if (claims.sub !== undefined) jwt.setSubject(claims.sub);
        if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
        return jwt.sign(secret);
      };
      // Sanity: the same construction with every claim is accepted.
      await expectJson(await api().me(await sign({ sub: user.id, exp: iat + 60 })), 200, { user });
      await expectError(await api().me(await sign({ sub: user.id })), 401, 'Invalid token');
      await expectError(await api().me(await sign({ sub: user.id, exp: iat - 1 })), 401, 'Invalid token');
      await expectError(await api().me(await sign({ exp: iat + 60 })), 401, 'Invalid token');
    });

    it.each([
      ['a well-formed id nobody has', '000000000000000000000bad'],
      ['an id that is not a valid id form', 'not-an-id'],
      ['an empty sub', ''],
    ])('answers 401 User no longer exists for a valid token naming %s', async (_label, sub) => {
      await api().signUp();
      await expectError(await api().me(await issueToken(sub, api().clock)), 401, 'User no longer exists');
    });
  });

  local.describe('password hashes never leave the service', () => {
    it('appear in no signup, login, /me, 409 or 400 response and in no log entry', async () => {
      const password = 'unmistakable-password-123';
      const texts: string[] = [];
      const collect = async (res: Response) => {
        texts.push(await res.text());
      };
      const signup = await api().send('POST', '/auth/signup', { ...alice, password });
      const { token } = (await signup.clone().json()) as { token: string };
      await collect(signup);
      await collect(await api().send('POST', '/auth/login', { email: alice.email, password }));
      await collect(await api().me(token));
      await collect(await api().send('POST', '/auth/signup', { ...alice, password }));
      await collect(await api().send('POST', '/auth/login', { email: alice.email, password: 'wrong' }));
      await collect(await api().send('POST', '/auth/signup', { ...alice, email: 'x', password: `${password}${'z'.repeat(60)}` }));
      const everything = [...texts, api().logger.serialize()].join('\n');
      expect(everything).not.toContain('passwordHash');
      expect(everything).not.toContain('fake-hash');
      expect(everything).not.toContain(password);
    });
  });
}

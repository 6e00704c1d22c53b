import type { Account } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { FOREIGN_JWT_SECRET, PASSWORD, SEVEN_DAYS_MS, alice } from '../support/fixtures.js';
import { issueToken, sessionIdOf } from '../support/tokens.js';
import { expectJson, expectNoContent, type HttpApi } from './harness.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The account's keys, and the only ones. */
const ACCOUNT_KEYS = ['createdAt', 'email', 'emailVerified', 'id', 'name', 'updatedAt'];

/** The challenges of a 401 (RFC 6750 §3): no error code when no token was refused, `invalid_token` when one was. */
const NO_TOKEN_CHALLENGE = 'Bearer realm="inkwell"';
const REFUSED_TOKEN_CHALLENGE = 'Bearer realm="inkwell", error="invalid_token"';

/**
 * `GET /me/account` (docs/api.md): the state of the account a token names, by the `GET /me` token
 * rules, never cached; and `POST /auth/verify-email`, which answers it too. Each answer is compared
 * whole, with its keys listed, and every change of state is read back through the endpoint.
 */
export function describeMeAccount(api: () => HttpApi): void {
  /** `GET /me/account` with `token`: the account, after checking the answer's status, keys, types and `Cache-Control`. */
  async function accountOf(token: string): Promise<Account> {
    const res = await api().request('/me/account', { headers: auth(token) });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { account } = (await expectJson(res, 200, { account: expect.any(Object) })) as { account: Account };
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(account).toStrictEqual({
      id: expect.any(String),
      email: expect.any(String),
      name: expect.any(String),
      emailVerified: expect.any(Boolean),
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    expect([Number.isInteger(account.createdAt), Number.isInteger(account.updatedAt)]).toEqual([true, true]);
    expect(account.updatedAt).toBeGreaterThanOrEqual(account.createdAt);
    return account;
  }
  const verify = (token: string) => api().send('POST', '/auth/verify-email', { token });

  describe('GET /me/account', () => {
    it("answers 200 { account }: the user object's fields, unverified, and the signup's time in integer milliseconds", async () => {
      const before = api().clock.now();
      const { token, user } = await api().signUp();
      const after = api().clock.now();
      const account = await accountOf(token);
      expect(account).toStrictEqual({ ...user, emailVerified: false, createdAt: account.createdAt, updatedAt: account.createdAt });
      expect(account.createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(account.createdAt).toBeLessThanOrEqual(after + 1000);
      await expectJson(await api().me(token), 200, { user });
    });

    it('reads verified once the mailed link is used, the same account POST /auth/verify-email answered; the user object is unchanged', async () => {
      const { token, user } = await api().signUp();
      const unverified = await accountOf(token);
      const mail = await api().inbox.take('email-verification', alice.email);
      await api().elapse(1);
      const res = await verify(mail.token);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { account: answered } = (await expectJson(res, 200, { account: { ...unverified, emailVerified: true, updatedAt: expect.any(Number) } })) as {
        account: Account;
      };
      expect(answered.updatedAt).toBeGreaterThan(unverified.updatedAt);
      expect(await accountOf(token)).toStrictEqual(answered);
      await expectJson(await api().me(token), 200, { user });
    });

    it('reads a new e-mail unverified again, until its own link is used', async () => {
      const { token, user } = await api().signUp();
      await expectJson(await verify((await api().inbox.take('email-verification', alice.email)).token), 200, { account: expect.any(Object) });
      const verified = await accountOf(token);
      await api().elapse(1);
      await expectJson(await api().send('PATCH', '/me', { email: 'alicia@example.org', currentPassword: PASSWORD }, auth(token)), 200, {
        user: { ...user, email: 'alicia@example.org' },
      });
      const moved = await accountOf(token);
      expect(moved).toStrictEqual({ ...verified, email: 'alicia@example.org', emailVerified: false, updatedAt: expect.any(Number) });
      expect(moved.updatedAt).toBeGreaterThan(verified.updatedAt);
      await api().inbox.take('email-changed', alice.email, 'no link');
      await expectJson(await verify((await api().inbox.take('email-verification', 'alicia@example.org')).token), 200, {
        account: { ...moved, emailVerified: true, updatedAt: expect.any(Number) },
      });
      expect((await accountOf(token)).emailVerified).toBe(true);
    });

    it('reads verified after a password reset sent to the address', async () => {
      await api().signUp();
      await api().elapse(1);
      await expectJson(await api().send('POST', '/auth/password-reset', { email: alice.email }), 202, {});
      const link = await api().inbox.take('password-reset', alice.email);
      const { token } = (await expectJson(await api().send('POST', '/auth/password-reset/confirm', { token: link.token, newPassword: 'a brand new passphrase' }), 200, {
        token: expect.any(String),
        user: expect.any(Object),
      })) as { token: string };
      expect((await accountOf(token)).emailVerified).toBe(true);
    });

    it('refuses every kind of bad token by the GET /me rules, with the challenge, never cached', async () => {
      const { token, user } = await api().signUp();
      const iat = Math.floor(api().clock.now() / 1000);
      const payload = b64url({ sub: user.id, sid: sessionIdOf(token), iat, exp: iat + 604_800 });
      const expiredClock = { now: () => api().clock.now() - SEVEN_DAYS_MS - 60_000 };

      const { token: ended } = (await expectJson(await api().send('POST', '/auth/login', alice), 200, { token: expect.any(String), user })) as { token: string };
      await expectNoContent(await api().request('/auth/logout', { method: 'POST', headers: auth(ended) }));
      const gone = await api().signUp({ email: 'gone@example.com' });
      await expectNoContent(await api().send('DELETE', '/me', { currentPassword: PASSWORD }, auth(gone.token)));

      const cases: [string, Record<string, string>, string, string][] = [
        ['no header', {}, 'Missing authorization header', NO_TOKEN_CHALLENGE],
        ['another scheme', { authorization: 'Basic YWxpY2U6cGFzc3dvcmQ=' }, 'Missing authorization header', NO_TOKEN_CHALLENGE],
        ['lower-case bearer', { authorization: `bearer ${token}` }, 'Missing authorization header', NO_TOKEN_CHALLENGE],
        ['not a token', auth('garbage'), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['another secret', auth(await issueToken(user.id, api().clock, { secret: FOREIGN_JWT_SECRET, sessionId: sessionIdOf(token) })), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['a changed payload', auth(`${token.split('.')[0]}.${payload}.${token.split('.')[2]}`), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['expired', auth(await issueToken(user.id, expiredClock, { sessionId: sessionIdOf(token) })), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['alg none', auth(`${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['an ended session', auth(ended), 'Invalid token', REFUSED_TOKEN_CHALLENGE],
        ['a deleted account', auth(gone.token), 'User no longer exists', REFUSED_TOKEN_CHALLENGE],
      ];
      for (const [label, headers, message, challenge] of cases) {
        const res = await api().request('/me/account', { headers });
        expect({ label, status: res.status, body: await res.json(), challenge: res.headers.get('www-authenticate'), cache: res.headers.get('cache-control') }).toEqual({
          label,
          status: 401,
          body: { error: message },
          challenge,
          cache: 'no-store',
        });
      }
      await accountOf(token);
    });
  });
}

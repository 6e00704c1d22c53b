import { describe, expect, it } from 'vitest';
import { PASSWORD, alice } from '../support/fixtures.js';
import { expectJson, type HttpApi } from './harness.js';

const NEW_PASSWORD = 'a brand new passphrase';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The user object's keys, and the only ones: the spec's "exactly `{ id, email, name }`". */
const USER_KEYS = ['email', 'id', 'name'];

/**
 * The user object as the spec shapes it (docs/api.md, Accounts): every answer that carries one
 * carries exactly `{ id, email, name }`, and no answer of the spec's own endpoints gains a key.
 * Each answer is compared whole (`toStrictEqual`, so a key too many or too few fails), and its
 * keys are listed besides, so a failure names the key that should not be there.
 */
export function describeUserObject(api: () => HttpApi): void {
  /** The body of `res`, checked to be exactly `expected` with exactly `keys` at the top and the user's three inside. */
  async function exactly(res: Response, status: number, keys: readonly string[], expected: object): Promise<{ token: string; user: { id: string } }> {
    const body = (await expectJson(res, status, expected)) as { token: string; user: { id: string } };
    expect(Object.keys(body).sort()).toEqual([...keys].sort());
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    return body;
  }

  describe('the user object is exactly { id, email, name } in every answer that carries one', () => {
    it('signup, login and GET /me: the spec\'s own endpoints', async () => {
      const signup = await exactly(await api().send('POST', '/auth/signup', alice), 201, ['token', 'user'], {
        token: expect.any(String),
        user: { id: expect.any(String), email: alice.email, name: alice.name },
      });
      const user = { id: signup.user.id, email: alice.email, name: alice.name };
      const login = await exactly(await api().send('POST', '/auth/login', { email: alice.email, password: PASSWORD }), 200, ['token', 'user'], {
        token: expect.any(String),
        user,
      });
      for (const token of [signup.token, login.token]) await exactly(await api().me(token), 200, ['user'], { user });
    });

    it('PATCH /me, POST /auth/refresh and POST /auth/password', async () => {
      const { token, user } = await api().signUp();
      const renamed = { ...user, name: 'Alicia' };
      await exactly(await api().send('PATCH', '/me', { name: 'Alicia' }, auth(token)), 200, ['user'], { user: renamed });
      const moved = { ...renamed, email: 'alicia@example.org' };
      await exactly(await api().send('PATCH', '/me', { email: moved.email, currentPassword: PASSWORD }, auth(token)), 200, ['user'], { user: moved });
      const refreshed = await exactly(await api().request('/auth/refresh', { method: 'POST', headers: auth(token) }), 200, ['token', 'user'], {
        token: expect.any(String),
        user: moved,
      });
      await exactly(await api().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, auth(refreshed.token)), 200, ['user'], {
        user: moved,
      });
      await exactly(await api().me(refreshed.token), 200, ['user'], { user: moved });
    });

    it('the password reset confirm, and GET /me once the address is verified', async () => {
      const { token, user } = await api().signUp();
      const verification = await api().inbox.take('email-verification', alice.email);
      await expectJson(await api().send('POST', '/auth/verify-email', { token: verification.token }), 200, { account: expect.objectContaining({ emailVerified: true }) });
      await exactly(await api().me(token), 200, ['user'], { user });
      await api().elapse(1);
      await expectJson(await api().send('POST', '/auth/password-reset', { email: alice.email }), 202, {});
      const link = await api().inbox.take('password-reset', alice.email);
      const reset = await exactly(await api().send('POST', '/auth/password-reset/confirm', { token: link.token, newPassword: NEW_PASSWORD }), 200, ['token', 'user'], {
        token: expect.any(String),
        user,
      });
      await exactly(await api().me(reset.token), 200, ['user'], { user });
    });
  });
}

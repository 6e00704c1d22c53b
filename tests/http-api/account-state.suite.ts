import { DomainError, type Account } from '@inkwell/domain';
import { crossing, holdNextCall } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { PASSWORD, alice, bob } from '../support/fixtures.js';
import { issueToken, issueTokenWithoutSession, sessionIdOf } from '../support/tokens.js';
import type { CrossingApps } from './account-races.suite.js';
import { expectError, expectJson, expectNoContent, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';
import { auth } from './owner-client.js';

const NEW_PASSWORD = 'a brand new passphrase';
const ACCOUNT_KEYS = ['createdAt', 'email', 'emailVerified', 'id', 'name', 'updatedAt'];
const REFUSED_TOKEN_CHALLENGE = 'Bearer realm="inkwell", error="invalid_token"';

/** `GET /me/account` with `token` on `app`, checked to be a 200 with exactly the account's six keys; the account. */
async function accountOf(app: HttpApi, token: string): Promise<Account> {
  const res = await app.request('/me/account', { headers: auth(token) });
  expect(res.headers.get('cache-control')).toBe('no-store');
  const { account } = (await expectJson(res, 200, { account: expect.any(Object) })) as { account: Account };
  expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
  return account;
}

/** What `GET /me/account` answers `token` with: its status, body, challenge and `Cache-Control`, in one comparable object. */
async function refusalOf(app: HttpApi, token: string) {
  const res = await app.request('/me/account', { headers: auth(token) });
  return { status: res.status, body: (await res.json()) as unknown, challenge: res.headers.get('www-authenticate'), cache: res.headers.get('cache-control') };
}
const refused = (error: string) => ({ status: 401, body: { error }, challenge: REFUSED_TOKEN_CHALLENGE, cache: 'no-store' });

/**
 * `GET /me/account` (docs/api.md) attacked by the tokens the `GET /me` rules must refuse that
 * me-account.suite.ts does not send (a token without a session once the account ended those, a
 * token naming another account's session, a deleted account whose e-mail signed up again), with
 * its store failing, and its `updatedAt` read back after every kind of request: it moves with the
 * account's name, e-mail, password and verification, and with nothing else, the same on every store.
 */
export function describeAccountState(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  const logIn = async (email: string = alice.email, password = PASSWORD) =>
    ((await expectJson(await api().send('POST', '/auth/login', { email, password }), 200, { token: expect.any(String), user: expect.any(Object) })) as { token: string })
      .token;

  describe('GET /me/account against the tokens it must refuse, and its times', () => {
    it('answers a token without a session until the account ends those (logout everywhere), then 401 Invalid token', async () => {
      const { token, user } = await api().signUp();
      const legacy = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 2000);
      expect(await accountOf(api(), legacy)).toStrictEqual(await accountOf(api(), token));
      await expectNoContent(await api().send('POST', '/auth/logout', { scope: 'all' }, auth(await logIn())));
      expect(await refusalOf(api(), legacy)).toEqual(refused('Invalid token'));
      expect(await refusalOf(api(), token)).toEqual(refused('Invalid token'));
    });

    it('refuses a token without a session once another session changed the password, and keeps the one that changed it', async () => {
      const { token, user } = await api().signUp();
      const legacy = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 2000);
      await expectJson(await api().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, auth(token)), 200, { user });
      expect(await refusalOf(api(), legacy)).toEqual(refused('Invalid token'));
      expect((await accountOf(api(), token)).id).toBe(user.id);

      const caller = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() + 2000);
      const other = await logIn(alice.email, NEW_PASSWORD);
      await expectJson(await api().send('POST', '/auth/password', { currentPassword: NEW_PASSWORD, newPassword: PASSWORD }, auth(caller)), 200, { user });
      expect((await accountOf(api(), caller)).id).toBe(user.id);
      expect(await refusalOf(api(), other)).toEqual(refused('Invalid token'));
    });

    it("refuses a validly signed token that names one account with another account's session, answering neither's data", async () => {
      const a = await api().signUp();
      const b = await api().signUp(bob);
      const crossed = [
        await issueToken(a.user.id, api().clock, { sessionId: sessionIdOf(b.token) as string }),
        await issueToken(b.user.id, api().clock, { sessionId: sessionIdOf(a.token) as string }),
      ];
      for (const token of crossed) expect(await refusalOf(api(), token)).toEqual(refused('Invalid token'));
      expect((await accountOf(api(), a.token)).email).toBe(alice.email);
      expect((await accountOf(api(), b.token)).email).toBe(bob.email);
    });

    it("keeps a deleted account's token refused (User no longer exists) after its e-mail signed up again, never answering the new account", async () => {
      const first = await api().signUp();
      await api().elapse(1);
      await expectNoContent(await api().send('DELETE', '/me', { currentPassword: PASSWORD }, auth(first.token)));
      const legacy = await issueTokenWithoutSession(first.user.id, api().clock);
      const again = await api().signUp();
      expect(again.user.id).not.toBe(first.user.id);
      for (const token of [first.token, legacy]) expect(await refusalOf(api(), token)).toEqual(refused('User no longer exists'));
      const account = await accountOf(api(), again.token);
      expect(account).toStrictEqual({ ...again.user, emailVerified: false, createdAt: account.createdAt, updatedAt: account.createdAt });
    });

    local.it('answers a failing store 500 or 503 with only { error }, no-store, and no challenge', async () => {
      const { token } = await api().signUp();
      for (const [error, status, message] of [
        [new Error('driver exploded: secret details'), 500, 'Internal server error'],
        [new DomainError('StoreUnavailable'), 503, 'Service unavailable'],
      ] as const) {
        api().faults.fail('users.findWithSession', error);
        const res = await api().request('/me/account', { headers: auth(token) });
        api().faults.clear();
        expect({ status: res.status, body: await res.json(), challenge: res.headers.get('www-authenticate'), cache: res.headers.get('cache-control') }).toEqual({
          status,
          body: { error: message },
          challenge: null,
          cache: 'no-store',
        });
      }
      await accountOf(api(), token);
    });

    local.it('moves updatedAt with the name, the e-mail, the password and the verification, to the time of each, and with nothing else', async () => {
      const T0 = api().clock.now();
      const { token, user } = await api().signUp();
      const at = async (expected: number, step: string) => {
        const account = await accountOf(api(), token);
        expect({ step, createdAt: account.createdAt, updatedAt: account.updatedAt }).toEqual({ step, createdAt: T0, updatedAt: expected });
      };
      await at(T0, 'signup');
      const tick = () => api().elapse(10);

      await tick();
      await expectJson(await api().send('PATCH', '/me', { name: 'Alicia' }, auth(token)), 200, { user: { ...user, name: 'Alicia' } });
      await at(T0 + 10, 'rename');

      // Nothing below changes the account itself.
      await tick();
      const other = await logIn();
      await expectError(await api().send('POST', '/auth/login', { email: alice.email, password: 'a wrong guess' }), 401, 'Invalid email or password');
      await tick();
      await expectJson(await api().request('/auth/refresh', { method: 'POST', headers: auth(other) }), 200, { token: expect.any(String), user: expect.any(Object) });
      await expectNoContent(await api().request(`/me/sessions/${sessionIdOf(other)}`, { method: 'DELETE', headers: auth(token) }));
      await expectNoContent(await api().send('POST', '/auth/logout', { scope: 'others' }, auth(token)));
      await expectJson(await api().request('/me/verify-email', { method: 'POST', headers: auth(token) }), 202, {});
      await expectJson(await api().send('POST', '/auth/password-reset', { email: alice.email }), 202, {});
      await expectError(await api().send('DELETE', '/me', { currentPassword: 'a wrong guess' }, auth(token)), 403, 'Current password is incorrect');
      await at(T0 + 10, 'logins, a refresh, logouts, mail asked for, a refused deletion');

      await tick();
      await expectJson(await api().send('PATCH', '/me', { email: 'alicia@example.org', currentPassword: PASSWORD }, auth(token)), 200, {
        user: { ...user, name: 'Alicia', email: 'alicia@example.org' },
      });
      await at(T0 + 40, 'new e-mail');

      await tick();
      const link = await api().inbox.take('email-verification', 'alicia@example.org');
      await expectJson(await api().send('POST', '/auth/verify-email', { token: link.token }), 200, { account: expect.objectContaining({ updatedAt: T0 + 50 }) });
      await at(T0 + 50, 'verification');

      await tick();
      await expectJson(await api().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, auth(token)), 200, { user: expect.any(Object) });
      await at(T0 + 60, 'password change');
    });
  });
}

/**
 * `updatedAt` as `GET /me/account` reads it, with a change held between what it read and its
 * write while another change of the same account is stored meanwhile, at a later time: the
 * account's `updatedAt` never moves back (as a post's never does), whichever write lands last,
 * on one app or on two apps sharing one database.
 */
export function describeAccountStateRaces(apps: () => CrossingApps): void {
  const held = () => apps().held;
  const other = () => apps().other;
  const users = () => held().inkwell.store.users;
  /** Alice signed up through `held`, with her verification link not used yet. */
  const aliceWithLink = async () => {
    const { token, user } = await held().signUp();
    const { token: link } = await held().inbox.take('email-verification', alice.email);
    return { token, user, link };
  };
  /** Moves both apps' clocks on by `ms` (one clock when both are one app). */
  const later = async (ms: number) => {
    await held().elapse(ms);
    if (other() !== held()) await other().elapse(ms);
  };
  /** What `GET /me/account` reads after the crossing: an `updatedAt` never earlier than `atLeast` (what an answer already showed), nor than the signup. */
  const expectNotBack = async (token: string, atLeast: number) => {
    const { createdAt, updatedAt } = await accountOf(other(), token);
    expect({ updatedAt, movedBackBy: Math.max(0, atLeast - updatedAt), beforeSignup: updatedAt < createdAt }).toEqual({
      updatedAt: Math.max(updatedAt, atLeast),
      movedBackBy: 0,
      beforeSignup: false,
    });
  };

  describe("the account's updatedAt with two changes crossing", () => {
    it('PATCH /me held at its write while the address is verified later: updatedAt stays at the verification', async () => {
      const { token, link } = await aliceWithLink();
      let verifiedAt = 0;
      const renamed = await crossing(
        holdNextCall(users(), 'update'),
        () => held().send('PATCH', '/me', { name: 'Alicia' }, auth(token)),
        async () => {
          await later(1_000);
          const res = await other().send('POST', '/auth/verify-email', { token: link });
          verifiedAt = ((await expectJson(res, 200, { account: expect.objectContaining({ emailVerified: true }) })) as { account: Account }).account.updatedAt;
        },
      );
      await expectJson(renamed, 200, { user: expect.objectContaining({ name: 'Alicia' }) });
      await expectNotBack(token, verifiedAt);
    });

    it('POST /auth/password held at its write while the address is verified later: updatedAt stays at the verification', async () => {
      const { token, link } = await aliceWithLink();
      let verifiedAt = 0;
      const changed = await crossing(
        holdNextCall(users(), 'changePassword'),
        () => held().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, auth(token)),
        async () => {
          await later(1_000);
          const res = await other().send('POST', '/auth/verify-email', { token: link });
          verifiedAt = ((await expectJson(res, 200, { account: expect.objectContaining({ emailVerified: true }) })) as { account: Account }).account.updatedAt;
        },
      );
      await expectJson(changed, 200, { user: expect.any(Object) });
      await expectNotBack(token, verifiedAt);
    });

    it('the reset confirm held at its write while the account is renamed later: updatedAt stays at the rename', async () => {
      const { token } = await aliceWithLink();
      await later(1);
      await expectJson(await held().send('POST', '/auth/password-reset', { email: alice.email }), 202, {});
      const { token: link } = await held().inbox.take('password-reset', alice.email);
      let renamedAt = 0;
      const reset = await crossing(
        holdNextCall(users(), 'resetPassword'),
        () => held().send('POST', '/auth/password-reset/confirm', { token: link, newPassword: NEW_PASSWORD }),
        async () => {
          await later(1_000);
          await expectJson(await other().send('PATCH', '/me', { name: 'Alicia' }, auth(token)), 200, { user: expect.objectContaining({ name: 'Alicia' }) });
          renamedAt = (await accountOf(other(), token)).updatedAt;
        },
      );
      const { token: after } = (await expectJson(reset, 200, { token: expect.any(String), user: expect.objectContaining({ name: 'Alicia' }) })) as { token: string };
      await expectNotBack(after, renamedAt);
    });
  });
}

import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { verifyEmail } from './verify-email.js';
import { authenticate } from './authenticate.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { logIn } from './log-in.js';
import { signUp } from './sign-up.js';
import { updateAccount } from './update-account.js';

describe('updateAccount', () => {
  it('changes the name without the password, keeping every session', async () => {
    const { deps, users, clock, signedIn } = await aliceSignedUp();
    clock.advance(5);
    const user = await updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ name: 'Alicia' }) });
    expect(user).toStrictEqual({ ...signedIn.user, name: 'Alicia' });
    expect(await users.findById(user.id)).toMatchObject({ name: 'Alicia', updatedAt: clock.now() });
    await authenticate(deps, { credentials: bearer(signedIn.token) });
  });

  it('changes the e-mail, trimmed and lower-cased, with the current password; the old one is free', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const user = await updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ email: ' Alicia@Example.ORG ', currentPassword: ALICE.password }) });
    expect(user).toStrictEqual({ ...signedIn.user, email: 'alicia@example.org' });
    expect((await logIn(deps, { body: bodyOf({ email: 'alicia@example.org', password: ALICE.password }) })).user.id).toBe(user.id);
    expect((await rejection(logIn(deps, { body: bodyOf(ALICE) }))).code).toBe('InvalidCredentials');
    await signUp(deps, { body: bodyOf(ALICE) });
  });

  it('makes a new e-mail unverified, and with mail on sends a verification link to it and a notice to the old one', async () => {
    const { deps, users, credentials, deliver, tokenOf } = await aliceWithMail();
    await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) });
    const user = await updateAccount(deps, { credentials, body: bodyOf({ email: 'alicia@example.org', currentPassword: ALICE.password }) });
    expect(user).toStrictEqual({ id: user.id, email: 'alicia@example.org', name: ALICE.name });
    expect((await users.findById(user.id))?.emailVerified).toBe(false);
    expect(await deliver()).toStrictEqual([
      { messageId: expect.any(String), kind: 'email-verification', to: 'alicia@example.org', name: ALICE.name, token: expect.any(String), linkExpiresAt: expect.any(Number) },
      { messageId: expect.any(String), kind: 'email-changed', to: ALICE.email, name: ALICE.name },
    ]);
    expect(await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) })).toMatchObject({ email: 'alicia@example.org', emailVerified: true });
  });

  it('sends nothing and keeps the address verified for a new name, or the account\'s own e-mail again', async () => {
    const { deps, users, signedIn, credentials, deliver, tokenOf } = await aliceWithMail();
    await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) });
    await updateAccount(deps, { credentials, body: bodyOf({ name: 'Alicia' }) });
    expect((await users.findById(signedIn.user.id))?.emailVerified).toBe(true);
    await updateAccount(deps, { credentials, body: bodyOf({ email: ALICE.email.toUpperCase(), currentPassword: ALICE.password }) });
    expect((await users.findById(signedIn.user.id))?.emailVerified).toBe(true);
    expect(await deliver()).toEqual([]);
  });

  it('needs the current password for a new e-mail: missing is a 400 issue at currentPassword, wrong is CurrentPasswordIncorrect', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    const missing = await rejection(updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ email: 'new@example.com', name: 'X' }) }));
    expect(missing.issues).toEqual([{ path: 'currentPassword', message: 'is required to change the e-mail' }]);
    const both = await rejection(updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ email: 'not-an-email', name: '' }) }));
    expect(both.issues?.map((issue) => issue.path)).toEqual(['name', 'email', 'currentPassword']);
    const wrong = await rejection(updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ email: 'new@example.com', currentPassword: 'nope' }) }));
    expect(wrong.code).toBe('CurrentPasswordIncorrect');
    expect(await users.findById(signedIn.user.id)).toMatchObject({ email: ALICE.email, name: ALICE.name });
  });

  it('counts a wrong current password against the login limits of the account\'s e-mail', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const limited = { ...deps, loginLimits: { failuresPerEmail: createInMemoryAttemptLimiter({ max: 1, windowSeconds: 60, clock }) } };
    await rejection(updateAccount(limited, { credentials: bearer(signedIn.token), body: bodyOf({ email: 'new@example.com', currentPassword: 'nope' }) }));
    expect((await rejection(updateAccount(limited, { credentials: bearer(signedIn.token), body: bodyOf({ email: 'new@example.com', currentPassword: ALICE.password }) }))).code).toBe(
      'TooManyAttempts',
    );
  });

  it('refuses an e-mail another account has with EmailAlreadyInUse, changing nothing', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
    const error = await rejection(updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ name: 'Mallory', email: 'BOB@example.com', currentPassword: ALICE.password }) }));
    expect(error.code).toBe('EmailAlreadyInUse');
    expect(await users.findById(signedIn.user.id)).toMatchObject({ email: ALICE.email, name: ALICE.name });
  });

  describe('the e-mail change limits', () => {
    /** Alice and Bob signed up, and the limits of `max` e-mail changes per account and `perAddress` per client address an hour. */
    async function limitedChanges(max: number, perAddress = 100) {
      const alice = await aliceSignedUp();
      await signUp(alice.deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
      const { clock } = alice;
      const emailChangeLimits = {
        perAccount: createInMemoryAttemptLimiter({ max, windowSeconds: 3600, clock }),
        perAddress: createInMemoryAttemptLimiter({ max: perAddress, windowSeconds: 3600, clock }),
      };
      const deps = { ...alice.deps, emailChangeLimits };
      const change = (body: object, credentials = bearer(alice.signedIn.token), clientAddress = '192.0.2.1') =>
        updateAccount(deps, { credentials, body: bodyOf(body), client: { clientAddress } });
      const moveTo = (email: string, clientAddress?: string) => change({ email, currentPassword: ALICE.password }, undefined, clientAddress);
      return { ...alice, deps, change, moveTo };
    }

    it('allows `max` e-mail changes per account an hour, a taken e-mail included, then TooManyAttempts with the wait, changing nothing', async () => {
      const { moveTo, users, signedIn, clock } = await limitedChanges(3);
      await moveTo('a1@example.com');
      expect((await rejection(moveTo('bob@example.com'))).code).toBe('EmailAlreadyInUse');
      await moveTo('a2@example.com');
      const refused = await rejection(moveTo('a3@example.com', '198.51.100.7'));
      expect([refused.code, refused.retryAfterSeconds]).toEqual(['TooManyAttempts', 3600]);
      expect((await rejection(moveTo('bob@example.com'))).code).toBe('TooManyAttempts');
      expect(await users.findById(signedIn.user.id)).toMatchObject({ email: 'a2@example.com' });
      clock.advance(3600 * 1000);
      await moveTo('a3@example.com');
    });

    it('counts neither a name alone, nor the same e-mail again, nor a wrong current password', async () => {
      const { change, moveTo } = await limitedChanges(1);
      for (let i = 0; i < 3; i++) {
        await change({ name: `Alice ${i}` });
        await change({ email: ALICE.email.toUpperCase(), currentPassword: ALICE.password });
        expect((await rejection(change({ email: 'x@example.com', currentPassword: 'wrong' }))).code).toBe('CurrentPasswordIncorrect');
      }
      await moveTo('a1@example.com');
      expect((await rejection(moveTo('a2@example.com'))).code).toBe('TooManyAttempts');
    });

    it('allows `perAddress` changes per client address an hour, across accounts, so the 409 cannot tell many e-mails apart', async () => {
      const { deps, moveTo, change } = await limitedChanges(10, 2);
      const bob = await logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: ALICE.password }) });
      expect((await rejection(moveTo('bob@example.com'))).code).toBe('EmailAlreadyInUse');
      expect((await rejection(change({ email: ALICE.email, currentPassword: ALICE.password }, bearer(bob.token))) ).code).toBe('EmailAlreadyInUse');
      expect((await rejection(moveTo('carol@example.com'))).code).toBe('TooManyAttempts');
      await moveTo('carol@example.com', '192.0.2.2');
    });

    it('gives the count back when the change does not apply: a store failure, or a token ended meanwhile', async () => {
      const { deps, moveTo } = await limitedChanges(1);
      const failure = new Error('store down');
      const update = vi.spyOn(deps.users, 'update').mockRejectedValueOnce(failure);
      await expect(moveTo('a1@example.com')).rejects.toBe(failure);
      update.mockResolvedValueOnce(null);
      await rejection(moveTo('a1@example.com'));
      update.mockRestore();
      await moveTo('a1@example.com');
    });
  });

  it.each([{}, { password: 'x' }, { currentPassword: ALICE.password }, { id: 'x', passwordHash: 'fake-hash:owned', createdAt: 1, role: 'admin' }])(
    'refuses a body that names neither name nor email (%j), saying what to send, and changes nothing',
    async (body) => {
      const { deps, users, signedIn } = await aliceSignedUp();
      const before = await users.findById(signedIn.user.id);
      const error = await rejection(updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf(body) }));
      expect([error.code, error.issues]).toEqual(['ValidationFailed', [{ path: '', message: 'must include name or email' }]]);
      expect(await users.findById(signedIn.user.id)).toStrictEqual(before);
    },
  );

  it('ignores unknown fields beside a name; never takes id, passwordHash or times', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    const before = await users.findById(signedIn.user.id);
    const body = { name: 'Alice', id: 'x', passwordHash: 'fake-hash:owned', createdAt: 1, role: 'admin' };
    expect(await updateAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf(body) })).toStrictEqual(signedIn.user);
    const after = await users.findById(signedIn.user.id);
    expect({ ...after, updatedAt: before?.updatedAt }).toStrictEqual(before);
  });

  it('checks the token before it reads the body', async () => {
    const { deps } = await aliceSignedUp();
    const readBody = vi.fn(async () => ({ name: 'X' }));
    expect((await rejection(updateAccount(deps, { credentials: NO_CREDENTIALS, body: readBody }))).code).toBe('MissingAuthorization');
    expect(readBody).not.toHaveBeenCalled();
  });
});

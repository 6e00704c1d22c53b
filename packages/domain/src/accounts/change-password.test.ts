import { bearer } from './credentials.js';
import { describe, expect, it, vi } from 'vitest';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { changePassword } from './change-password.js';
import { logIn } from './log-in.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('changePassword', () => {
  it('stores the new hash, keeps the caller\'s session and ends every other one and the tokens without a session', async () => {
    const { deps, users, tokens, clock, signedIn } = await aliceSignedUp();
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    const legacy = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1000);
    clock.advance(1);
    const user = await changePassword(deps, { credentials: bearer(phone.token), body: bodyOf({ currentPassword: ALICE.password, newPassword: NEW_PASSWORD }) });
    expect(user).toStrictEqual(signedIn.user);
    expect((await users.findById(user.id))?.passwordHash).toBe(`fake-hash:${NEW_PASSWORD}`);
    await authenticate(deps, { credentials: bearer(phone.token) });
    for (const ended of [signedIn.token, legacy]) expect((await rejection(authenticate(deps, { credentials: bearer(ended) }))).code).toBe('InvalidToken');
  });

  it('keeps the caller working when the change is made with a token without a session, and ends every other token', async () => {
    const { deps, tokens, clock, signedIn } = await aliceSignedUp();
    const caller = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 2000);
    const other = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1000);
    clock.advance(1);
    await changePassword(deps, { credentials: bearer(caller), body: bodyOf({ currentPassword: ALICE.password, newPassword: NEW_PASSWORD }) });
    await authenticate(deps, { credentials: bearer(caller) });
    for (const ended of [signedIn.token, other]) expect((await rejection(authenticate(deps, { credentials: bearer(ended) }))).code).toBe('InvalidToken');
    // It goes on as the contract says: another change, a refresh into a session.
    await changePassword(deps, { credentials: bearer(caller), body: bodyOf({ currentPassword: NEW_PASSWORD, newPassword: ALICE.password }) });
    await authenticate(deps, { credentials: bearer(caller) });
  });

  it('sends a notice to the account\'s address when mail is on, and none for a refused change', async () => {
    const { deps, credentials, deliver } = await aliceWithMail();
    await rejection(changePassword(deps, { credentials, body: bodyOf({ currentPassword: 'not it', newPassword: NEW_PASSWORD }) }));
    expect(await deliver()).toEqual([]);
    await changePassword(deps, { credentials, body: bodyOf({ currentPassword: ALICE.password, newPassword: NEW_PASSWORD }) });
    expect(await deliver()).toStrictEqual([{ messageId: expect.any(String), kind: 'password-changed', to: ALICE.email, name: ALICE.name }]);
  });

  it('lets only the new password log in', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    await changePassword(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password, newPassword: NEW_PASSWORD }) });
    expect((await rejection(logIn(deps, { body: bodyOf(ALICE) }))).code).toBe('InvalidCredentials');
    await logIn(deps, { body: bodyOf({ email: ALICE.email, password: NEW_PASSWORD }) });
  });

  it('refuses a wrong current password with CurrentPasswordIncorrect, changing nothing and ending nothing', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    const hashSpy = vi.spyOn(deps.hasher, 'hash');
    const error = await rejection(changePassword(deps, { credentials: bearer(phone.token), body: bodyOf({ currentPassword: 'not it', newPassword: NEW_PASSWORD }) }));
    expect(error.code).toBe('CurrentPasswordIncorrect');
    expect(hashSpy).not.toHaveBeenCalled();
    expect((await users.findById(signedIn.user.id))?.passwordHash).toBe(`fake-hash:${ALICE.password}`);
    await authenticate(deps, { credentials: bearer(signedIn.token) });
  });

  it("counts a wrong current password as a failed login of the account's e-mail: past the limit, 429 even for the right one", async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const failuresPerEmail = createInMemoryAttemptLimiter({ max: 2, windowSeconds: 60, clock });
    const limited = { ...deps, loginLimits: { failuresPerEmail } };
    for (let i = 0; i < 2; i++) {
      expect((await rejection(changePassword(limited, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD }) }))).code).toBe(
        'CurrentPasswordIncorrect',
      );
    }
    const refused = await rejection(changePassword(limited, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password, newPassword: NEW_PASSWORD }) }));
    expect([refused.code, refused.retryAfterSeconds]).toEqual(['TooManyAttempts', 60]);
    // The same count as login's: logins of the e-mail are refused too.
    expect((await rejection(logIn(limited, { body: bodyOf(ALICE) }))).code).toBe('TooManyAttempts');
  });

  it('validates the new password by the signup rules, listing every problem, after the token', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const error = await rejection(changePassword(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: '', newPassword: 'short' }) }));
    expect(error.issues).toEqual([
      { path: 'currentPassword', message: 'must not be empty' },
      { path: 'newPassword', message: 'must be at least 8 characters' },
    ]);
    expect((await rejection(changePassword(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password, newPassword: 'é'.repeat(37) }) }))).issues).toEqual([
      { path: 'newPassword', message: 'must be at most 72 bytes in UTF-8' },
    ]);
    const readBody = vi.fn(async () => ({}));
    expect((await rejection(changePassword(deps, { credentials: bearer('garbage'), body: readBody }))).code).toBe('InvalidToken');
    expect(readBody).not.toHaveBeenCalled();
  });
});

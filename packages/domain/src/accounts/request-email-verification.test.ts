import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { bearer, NO_CREDENTIALS } from './credentials.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { logOut } from './log-out.js';
import { requestEmailVerification } from './request-email-verification.js';
import { verifyEmail } from './verify-email.js';

describe('requestEmailVerification', () => {
  it('sends a new verification link to the account\'s address', async () => {
    const { deps, users, credentials, deliver, signedIn, clock } = await aliceWithMail();
    clock.advance(1);
    expect(await requestEmailVerification(deps, { credentials })).toBeUndefined();
    expect(await deliver()).toMatchObject([{ kind: 'email-verification', to: ALICE.email, name: ALICE.name, token: expect.any(String) }]);
    expect((await users.findById(signedIn.user.id))?.emailVerified).toBe(false);
  });

  it('refuses an address verified already with EmailAlreadyVerified, before counting it', async () => {
    const { deps, credentials, tokenOf, clock } = await aliceWithMail();
    const verificationsPerAccount = createInMemoryAttemptLimiter({ max: 1, windowSeconds: 3600, clock });
    await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) });
    const takeSpy = vi.spyOn(verificationsPerAccount, 'take');
    expect((await rejection(requestEmailVerification({ ...deps, mailLimits: { verificationsPerAccount } }, { credentials }))).code).toBe('EmailAlreadyVerified');
    expect(takeSpy).not.toHaveBeenCalled();
  });

  it('allows 3 an hour per account, then TooManyAttempts with the wait', async () => {
    const { deps, credentials, clock, outbox } = await aliceWithMail();
    const verificationsPerAccount = createInMemoryAttemptLimiter({ max: 3, windowSeconds: 3600, clock });
    const ask = () => requestEmailVerification({ ...deps, mailLimits: { verificationsPerAccount } }, { credentials });
    const addSpy = vi.spyOn(outbox, 'add');
    for (let i = 0; i < 3; i++) await ask();
    const refused = await rejection(ask());
    expect([refused.code, refused.retryAfterSeconds]).toEqual(['TooManyAttempts', 3600]);
    expect(addSpy).toHaveBeenCalledTimes(3);
    clock.advance(3600 * 1000);
    await ask();
  });

  it('takes a token by the GET /me rules', async () => {
    const { deps, credentials, signedIn } = await aliceWithMail();
    expect((await rejection(requestEmailVerification(deps, { credentials: NO_CREDENTIALS }))).code).toBe('MissingAuthorization');
    expect((await rejection(requestEmailVerification(deps, { credentials: bearer('forged') }))).code).toBe('InvalidToken');
    await logOut(deps, { credentials: bearer(signedIn.token) });
    expect((await rejection(requestEmailVerification(deps, { credentials }))).code).toBe('InvalidToken');
  });

  it('is not offered when mail is off, before the token is checked', async () => {
    const { deps } = await aliceWithMail();
    expect((await rejection(requestEmailVerification({ ...deps, outbox: undefined }, { credentials: NO_CREDENTIALS }))).code).toBe('NotOffered');
  });
});

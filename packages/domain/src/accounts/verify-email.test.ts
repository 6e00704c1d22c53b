import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { currentAccount } from './current-account.js';
import { currentUser } from './current-user.js';
import { requestEmailVerification } from './request-email-verification.js';
import { updateAccount } from './update-account.js';
import { verifyEmail } from './verify-email.js';

const HOUR = 60 * 60_000;

describe('verifyEmail', () => {
  it('marks the address verified with the link signup sent, without credentials, once, and answers the account', async () => {
    const { deps, clock, signedIn, credentials, tokenOf } = await aliceWithMail();
    const token = tokenOf('email-verification');
    const account = await currentAccount(deps, { credentials });
    clock.advance(3);
    expect(await verifyEmail(deps, { body: bodyOf({ token }) })).toStrictEqual({ ...account, emailVerified: true, updatedAt: clock.now() });
    expect(await currentAccount(deps, { credentials })).toStrictEqual({ ...account, emailVerified: true, updatedAt: clock.now() });
    expect(await currentUser(deps, { credentials })).toStrictEqual(signedIn.user);
    expect((await rejection(verifyEmail(deps, { body: bodyOf({ token }) }))).code).toBe('InvalidLinkToken');
  });

  it('refuses a link once its 24 hours from the request are over', async () => {
    const late = await aliceWithMail();
    late.clock.advance(24 * HOUR - 1);
    expect((await rejection(verifyEmail(late.deps, { body: bodyOf({ token: late.tokenOf('email-verification') }) }))).code).toBe('InvalidLinkToken');
    const inTime = await aliceWithMail();
    inTime.clock.advance(24 * HOUR - 2);
    await verifyEmail(inTime.deps, { body: bodyOf({ token: inTime.tokenOf('email-verification') }) });
  });

  it('works only while the account has the address it was sent to, and the newest link sent is the one that works', async () => {
    const { deps, credentials, deliver, tokenOf, clock } = await aliceWithMail();
    const first = tokenOf('email-verification');
    clock.advance(1);
    await requestEmailVerification(deps, { credentials });
    await deliver();
    const second = tokenOf('email-verification');
    expect((await rejection(verifyEmail(deps, { body: bodyOf({ token: first }) }))).code).toBe('InvalidLinkToken');
    for (const email of ['alicia@example.com', ALICE.email]) {
      await updateAccount(deps, { credentials, body: bodyOf({ email, currentPassword: ALICE.password }) });
    }
    expect((await rejection(verifyEmail(deps, { body: bodyOf({ token: second }) }))).code).toBe('InvalidLinkToken');
    await deliver();
    expect((await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) })).emailVerified).toBe(true);
  });

  it('refuses unknown tokens and invalid bodies', async () => {
    const { deps, tokenOf } = await aliceWithMail();
    const token = tokenOf('email-verification');
    for (const unknown of ['x', token.slice(1), token.toUpperCase()]) {
      expect((await rejection(verifyEmail(deps, { body: bodyOf({ token: unknown }) }))).code).toBe('InvalidLinkToken');
    }
    for (const body of [{}, { token: null }, { token: '' }, { token: 'x'.repeat(257) }]) {
      expect((await rejection(verifyEmail(deps, { body: bodyOf(body) }))).code).toBe('ValidationFailed');
    }
  });

  it('is not offered when mail is off, before the body is read', async () => {
    const { deps } = await aliceWithMail();
    const body = vi.fn(async () => ({}));
    expect((await rejection(verifyEmail({ ...deps, outbox: undefined }, { body }))).code).toBe('NotOffered');
    expect(body).not.toHaveBeenCalled();
  });
});

import { describe, expect, it } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { NO_CREDENTIALS, OTHER_CREDENTIALS, bearer } from './credentials.js';
import { currentAccount } from './current-account.js';
import { currentUser } from './current-user.js';
import { logOut } from './log-out.js';
import { TOKEN_LIFETIME_MS } from './session.js';
import { updateAccount } from './update-account.js';
import { verifyEmail } from './verify-email.js';

describe('currentAccount', () => {
  it("answers exactly the account's id, e-mail, name, verification and times, and nothing stored besides", async () => {
    const { deps, clock, signedIn, credentials } = await aliceSignedUp();
    const signedUpAt = clock.now();
    clock.advance(7);
    expect(await currentAccount(deps, { credentials })).toStrictEqual({
      id: signedIn.user.id,
      email: ALICE.email,
      name: ALICE.name,
      emailVerified: false,
      createdAt: signedUpAt,
      updatedAt: signedUpAt,
    });
  });

  it('is offered with mail off (no outbox): an account that never proved its address reads unverified', async () => {
    const { deps, credentials } = await aliceSignedUp();
    expect('outbox' in deps).toBe(false);
    expect((await currentAccount(deps, { credentials })).emailVerified).toBe(false);
  });

  it('reads verified once the link is used, with the time of the verification, while the user object stays three fields', async () => {
    const { deps, clock, signedIn, credentials, tokenOf } = await aliceWithMail();
    const before = await currentAccount(deps, { credentials });
    expect(before.emailVerified).toBe(false);
    clock.advance(5);
    const verified = await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) });
    const after = await currentAccount(deps, { credentials });
    expect(after).toStrictEqual({ ...before, emailVerified: true, updatedAt: clock.now() });
    expect(verified).toStrictEqual(after);
    expect(await currentUser(deps, { credentials })).toStrictEqual(signedIn.user);
  });

  it('reads a new e-mail unverified again, with the time of the change', async () => {
    const { deps, clock, credentials, tokenOf } = await aliceWithMail();
    await verifyEmail(deps, { body: bodyOf({ token: tokenOf('email-verification') }) });
    clock.advance(9);
    await updateAccount(deps, { credentials, body: bodyOf({ email: 'alicia@example.org', currentPassword: ALICE.password }) });
    expect(await currentAccount(deps, { credentials })).toMatchObject({ email: 'alicia@example.org', emailVerified: false, updatedAt: clock.now() });
  });

  it('takes a token by the GET /me rules, in their order', async () => {
    const { deps, users, tokens, clock, signedIn, credentials } = await aliceSignedUp();
    const code = async (request: Parameters<typeof currentAccount>[1]) => (await rejection(currentAccount(deps, request))).code;
    expect(await code({})).toBe('MissingAuthorization');
    expect(await code({ credentials: NO_CREDENTIALS })).toBe('MissingAuthorization');
    expect(await code({ credentials: OTHER_CREDENTIALS })).toBe('MissingAuthorization');
    expect(await code({ credentials: bearer('not-a-token') })).toBe('InvalidToken');
    const [live] = await users.listSessions(signedIn.user.id, clock.now());
    const expired = await tokens.issue({ userId: signedIn.user.id, sessionId: live?.id as string, issuedAt: clock.now() - TOKEN_LIFETIME_MS, expiresAt: clock.now() });
    expect(await code({ credentials: bearer(expired) })).toBe('InvalidToken');

    const other = await users.startSession(signedIn.user.id, { createdAt: clock.now(), expiresAt: clock.now() + TOKEN_LIFETIME_MS }, 20, clock.now());
    const ended = await tokens.issue({ userId: signedIn.user.id, sessionId: other?.id as string, issuedAt: clock.now(), expiresAt: clock.now() + TOKEN_LIFETIME_MS });
    await logOut(deps, { credentials: bearer(ended) });
    expect(await code({ credentials: bearer(ended) })).toBe('InvalidToken');

    await users.delete(signedIn.user.id);
    expect(await code({ credentials })).toBe('UserNoLongerExists');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { crossing, holdNextCall } from '../test-support/hold.js';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { changePassword } from './change-password.js';
import { confirmPasswordReset } from './confirm-password-reset.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { logIn } from './log-in.js';
import { PASSWORD_RESET_LINKS_KEPT } from './mail-rules.js';
import { requestPasswordReset } from './request-password-reset.js';
import { updateAccount } from './update-account.js';
import { bearer } from './credentials.js';

const NEW_PASSWORD = 'a brand new passphrase';
const MINUTE = 60_000;

/** Alice with mail on, who asked for a reset and got its mail: the link's token. */
async function aliceWithResetLink() {
  const alice = await aliceWithMail();
  await requestPasswordReset(alice.deps, { body: bodyOf({ email: ALICE.email }) });
  await alice.deliver();
  const confirm = (token: string, newPassword = NEW_PASSWORD) => confirmPasswordReset(alice.deps, { body: bodyOf({ token, newPassword }) });
  return { ...alice, token: alice.tokenOf('password-reset'), confirm };
}

describe('confirmPasswordReset', () => {
  it('sets the new password and answers a token of a new session, the only one: every other session and token without one ends', async () => {
    const { deps, users, tokens, clock, signedIn, token, confirm } = await aliceWithResetLink();
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    const legacy = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1000);
    clock.advance(1);
    const reset = await confirm(token);
    expect(reset).toStrictEqual({ token: expect.any(String), user: signedIn.user });
    await authenticate(deps, { credentials: bearer(reset.token) });
    for (const ended of [signedIn.token, phone.token, legacy]) {
      expect((await rejection(authenticate(deps, { credentials: bearer(ended) }))).code).toBe('InvalidToken');
    }
    expect(await users.listSessions(signedIn.user.id, clock.now())).toHaveLength(1);
    expect((await rejection(logIn(deps, { body: bodyOf(ALICE) }))).code).toBe('InvalidCredentials');
    await logIn(deps, { body: bodyOf({ email: ALICE.email, password: NEW_PASSWORD }) });
  });

  it('counts the address as verified, forgets the failed logins of the e-mail, and sends a notice to the address', async () => {
    const { deps, clock, token, deliver, signedIn } = await aliceWithResetLink();
    const failuresPerEmail = createInMemoryAttemptLimiter({ max: 3, windowSeconds: 900, clock });
    const limited = { ...deps, loginLimits: { failuresPerEmail } };
    for (let i = 0; i < 3; i++) await rejection(logIn(limited, { body: bodyOf({ email: ALICE.email, password: 'a guess' }) }));
    expect((await rejection(logIn(limited, { body: bodyOf(ALICE) }))).code).toBe('TooManyAttempts');
    const reset = await confirmPasswordReset(limited, { body: bodyOf({ token, newPassword: NEW_PASSWORD }) });
    expect(reset.user).toStrictEqual(signedIn.user);
    await logIn(limited, { body: bodyOf({ email: ALICE.email, password: NEW_PASSWORD }) });
    expect(await deliver()).toMatchObject([{ kind: 'password-changed', to: ALICE.email, name: ALICE.name }]);
    expect((await deps.users.findById(signedIn.user.id))?.emailVerified).toBe(true);
  });

  it('uses a token once', async () => {
    const { token, confirm } = await aliceWithResetLink();
    await confirm(token);
    expect((await rejection(confirm(token, 'yet another passphrase'))).code).toBe('InvalidLinkToken');
  });

  it('refuses a token once its 30 minutes from the request are over', async () => {
    const late = await aliceWithResetLink();
    late.clock.advance(30 * MINUTE);
    expect((await rejection(late.confirm(late.token))).code).toBe('InvalidLinkToken');
    const inTime = await aliceWithResetLink();
    inTime.clock.advance(30 * MINUTE - 1);
    await inTime.confirm(inTime.token);
  });

  it('takes a token a newer request did not end, and then ends every other link of the account', async () => {
    const { deps, token: older, deliver, tokenOf, confirm, clock } = await aliceWithResetLink();
    clock.advance(1);
    await requestPasswordReset(deps, { body: bodyOf({ email: ALICE.email }) });
    await deliver();
    const newer = tokenOf('password-reset');
    expect(newer).not.toBe(older);
    await confirm(older);
    expect((await rejection(confirm(newer, 'yet another passphrase'))).code).toBe('InvalidLinkToken');
  });

  it("keeps the owner's link working whatever a stranger asks for the address meanwhile, up to the links an account keeps, and then the newest", async () => {
    const owner = await aliceWithResetLink();
    const strangerAsks = async (times: number) => {
      for (let i = 0; i < times; i++) {
        owner.clock.advance(1);
        await requestPasswordReset(owner.deps, { body: bodyOf({ email: ALICE.email }), client: { clientAddress: `203.0.113.${i}` } });
      }
      await owner.deliver();
    };
    await strangerAsks(PASSWORD_RESET_LINKS_KEPT - 1);
    await owner.confirm(owner.token);
    // Past the links kept, the mails the owner received last still work.
    const flooded = await aliceWithResetLink();
    for (let i = 0; i < 2 * PASSWORD_RESET_LINKS_KEPT; i++) {
      flooded.clock.advance(1);
      await requestPasswordReset(flooded.deps, { body: bodyOf({ email: ALICE.email }), client: { clientAddress: `198.51.100.${i}` } });
    }
    await flooded.deliver();
    await flooded.confirm(flooded.tokenOf('password-reset'));
  });

  it('refuses a token after any password change', async () => {
    const { deps, token, confirm, credentials, clock } = await aliceWithResetLink();
    clock.advance(1);
    await changePassword(deps, { credentials, body: bodyOf({ currentPassword: ALICE.password, newPassword: 'changed meanwhile' }) });
    expect((await rejection(confirm(token))).code).toBe('InvalidLinkToken');
  });

  it('refuses a token sent to an address the account left, even once it is back', async () => {
    const { deps, token, confirm, credentials } = await aliceWithResetLink();
    for (const email of ['alicia@example.com', ALICE.email]) {
      await updateAccount(deps, { credentials, body: bodyOf({ email, currentPassword: ALICE.password }) });
    }
    expect((await rejection(confirm(token))).code).toBe('InvalidLinkToken');
  });

  it('refuses an unknown token without hashing a password, and uses no token for a body that fails validation', async () => {
    const { hasher, token, confirm } = await aliceWithResetLink();
    const hashes = hasher.calls.hash;
    for (const unknown of ['x', token.slice(1), `${token}x`, token.toUpperCase()]) {
      expect((await rejection(confirm(unknown))).code).toBe('InvalidLinkToken');
    }
    expect(hasher.calls.hash).toBe(hashes);
    const refused = await rejection(confirm(token, 'short'));
    expect([refused.code, refused.issues?.map((issue) => issue.path)]).toEqual(['ValidationFailed', ['newPassword']]);
    for (const body of [{}, { token: 42, newPassword: NEW_PASSWORD }, { token: '', newPassword: NEW_PASSWORD }, { token: 'x'.repeat(257), newPassword: NEW_PASSWORD }]) {
      expect((await rejection(confirmPasswordReset(await aliceWithMail().then(({ deps }) => deps), { body: bodyOf(body) }))).code).toBe('ValidationFailed');
    }
    await confirm(token);
  });

  it('lets exactly one of two uses of one token crossing between the check and the write apply', async () => {
    const { users, token, confirm } = await aliceWithResetLink();
    const held = holdNextCall(users, 'resetPassword');
    let second: Awaited<ReturnType<typeof confirm>> | undefined;
    const first = await rejection(crossing(held, () => confirm(token, 'the first passphrase'), async () => (second = await confirm(token, 'the second passphrase'))));
    expect(first.code).toBe('InvalidLinkToken');
    expect((await users.findById(second?.user.id ?? ''))?.passwordHash).toBe('fake-hash:the second passphrase');
  });

  it('applies nothing when a password change lands between its check and its write', async () => {
    const { deps, users, token, confirm, credentials } = await aliceWithResetLink();
    const held = holdNextCall(users, 'resetPassword');
    const refused = await rejection(
      crossing(held, () => confirm(token), () => changePassword(deps, { credentials, body: bodyOf({ currentPassword: ALICE.password, newPassword: 'changed meanwhile' }) })),
    );
    expect(refused.code).toBe('InvalidLinkToken');
    await logIn(deps, { body: bodyOf({ email: ALICE.email, password: 'changed meanwhile' }) });
  });

  it('is not offered when mail is off, before the body is read', async () => {
    const { deps } = await aliceWithMail();
    const body = vi.fn(async () => ({}));
    expect((await rejection(confirmPasswordReset({ ...deps, outbox: undefined }, { body }))).code).toBe('NotOffered');
    expect(body).not.toHaveBeenCalled();
  });
});

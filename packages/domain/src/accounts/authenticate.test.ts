import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it, vi } from 'vitest';
import { idsThatNameNothing } from '../test-support/ids.js';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { currentUser } from './current-user.js';
import { TOKEN_LIFETIME_MS } from './session.js';

describe('authenticate: the GET /me rules, in their order', () => {
  it("answers the token's user and live session", async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    const [session] = await users.listSessions(signedIn.user.id, deps.clock.now());
    const found = await authenticate(deps, { credentials: bearer(signedIn.token) });
    expect(found).toStrictEqual({
      user: await users.findById(signedIn.user.id),
      session,
      token: { userId: signedIn.user.id, sessionId: session?.id, issuedAt: deps.clock.now() },
    });
  });

  it('refuses a missing token (null) with MissingAuthorization, without verifying anything', async () => {
    const { deps, tokens, users } = await aliceSignedUp();
    const verifySpy = vi.spyOn(tokens, 'verify');
    const findSpy = vi.spyOn(users, 'findWithSession');
    const error = await rejection(authenticate(deps, { credentials: NO_CREDENTIALS }));
    expect(error.code).toBe('MissingAuthorization');
    expect(verifySpy).not.toHaveBeenCalled();
    expect(findSpy).not.toHaveBeenCalled();
  });

  it.each(['', 'garbage', 'token:', 'Bearer token:1', 'a.b.c'])('refuses the token %j with InvalidToken, without a look-up', async (token) => {
    const { deps, users } = await aliceSignedUp();
    const findSpy = vi.spyOn(users, 'findWithSession');
    const error = await rejection(authenticate(deps, { credentials: bearer(token) }));
    expect(error.code).toBe('InvalidToken');
    expect(findSpy).not.toHaveBeenCalled();
  });

  it('refuses an expired token with InvalidToken', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    clock.advance(TOKEN_LIFETIME_MS);
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');
  });

  it.each(idsThatNameNothing.filter((id) => !id.includes(':') && id !== '').map((id) => [id.length > 40 ? `${id.slice(0, 20)}… (${id.length} chars)` : id, id]))(
    'refuses a valid token whose sub names no user (%j) with UserNoLongerExists',
    async (_, id) => {
      const { deps, tokens, clock } = await aliceSignedUp();
      const token = await tokens.issue({ userId: id, sessionId: 's1', issuedAt: clock.now(), expiresAt: clock.now() + TOKEN_LIFETIME_MS });
      const error = await rejection(authenticate(deps, { credentials: bearer(token) }));
      expect(error.code).toBe('UserNoLongerExists');
    },
  );

  it('refuses the token of a deleted account with UserNoLongerExists, before its session is looked at', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    await users.delete(signedIn.user.id);
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('UserNoLongerExists');
  });

  it('refuses a token of an ended, an expired or an unknown session with InvalidToken', async () => {
    const { deps, users, tokens, clock, signedIn } = await aliceSignedUp();
    const userId = signedIn.user.id;
    const unknown = await tokens.issue({ userId, sessionId: 'no-such-session', issuedAt: clock.now(), expiresAt: clock.now() + TOKEN_LIFETIME_MS });
    expect((await rejection(authenticate(deps, { credentials: bearer(unknown) }))).code).toBe('InvalidToken');

    const [session] = await users.listSessions(userId, clock.now());
    await users.endSessions(userId, { sessions: { only: session?.id as string }, tokensWithoutSession: false }, clock.now());
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');

    // A token that outlives its session (a session capped shorter than the token) is refused at the session's end.
    const short = await users.startSession(userId, { createdAt: clock.now(), expiresAt: clock.now() + 1000 }, 20, clock.now());
    const token = await tokens.issue({ userId, sessionId: short?.id as string, issuedAt: clock.now(), expiresAt: clock.now() + TOKEN_LIFETIME_MS });
    expect((await authenticate(deps, { credentials: bearer(token) })).session).toStrictEqual(short);
    clock.advance(1000);
    expect((await rejection(authenticate(deps, { credentials: bearer(token) }))).code).toBe('InvalidToken');
  });

  it('accepts a token without a session until the account ends such tokens, then refuses it', async () => {
    const { deps, users, tokens, clock, signedIn } = await aliceSignedUp();
    const legacy = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1000);
    expect(await authenticate(deps, { credentials: bearer(legacy) })).toMatchObject({ session: null, token: { sessionId: null, issuedAt: clock.now() - 1000 } });
    clock.advance(1);
    await users.endSessions(signedIn.user.id, { sessions: 'none', tokensWithoutSession: true }, clock.now());
    expect((await rejection(authenticate(deps, { credentials: bearer(legacy) }))).code).toBe('InvalidToken');
    // The account's sessions are untouched.
    expect((await authenticate(deps, { credentials: bearer(signedIn.token) })).user.id).toBe(signedIn.user.id);
  });

  it('reads the user and the session in one call to the repository', async () => {
    const { deps, users, signedIn } = await aliceSignedUp();
    const spies = [vi.spyOn(users, 'findWithSession'), vi.spyOn(users, 'findById'), vi.spyOn(users, 'listSessions')];
    await authenticate(deps, { credentials: bearer(signedIn.token) });
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([1, 0, 0]);
  });
});

describe('currentUser', () => {
  it('returns exactly the public user the token names', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const user = await currentUser(deps, { credentials: bearer(signedIn.token) });
    expect(user).toStrictEqual({ id: signedIn.user.id, email: 'alice@example.com', name: 'Alice' });
  });
});

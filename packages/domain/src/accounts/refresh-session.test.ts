import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it } from 'vitest';
import { holdNextCall } from '../test-support/hold.js';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { listSessions } from './list-sessions.js';
import { logOut } from './log-out.js';
import { refreshSession } from './refresh-session.js';
import { TOKEN_LIFETIME_MS } from './session.js';

const DAY = 24 * 60 * 60 * 1000;

describe('refreshSession', () => {
  it('answers a new 7-day token of the same session and moves its expiry', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const [before] = await listSessions(deps, { credentials: bearer(signedIn.token) });
    clock.advance(DAY);
    const refreshed = await refreshSession(deps, { credentials: bearer(signedIn.token) });
    expect(refreshed.user).toStrictEqual(signedIn.user);
    expect(refreshed.token).not.toBe(signedIn.token);
    const [after] = await listSessions(deps, { credentials: bearer(refreshed.token) });
    expect(after).toStrictEqual({ ...before, expiresAt: clock.now() + TOKEN_LIFETIME_MS, current: true });
  });

  it('keeps older tokens of the session valid until their own expiry, and the new one past it', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    clock.advance(6 * DAY);
    const refreshed = await refreshSession(deps, { credentials: bearer(signedIn.token) });
    await authenticate(deps, { credentials: bearer(signedIn.token) });
    clock.advance(DAY);
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');
    await authenticate(deps, { credentials: bearer(refreshed.token) });
  });

  it('never lets a session live past its login plus the maximum age, then refuses it', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const login = clock.now();
    let token = signedIn.token;
    for (let day = 6; day < 30; day += 6) {
      clock.set(login + day * DAY);
      token = (await refreshSession(deps, { credentials: bearer(token) })).token;
    }
    const [session] = await listSessions(deps, { credentials: bearer(token) });
    expect(session?.expiresAt).toBe(login + 30 * DAY);
    clock.set(login + 30 * DAY);
    expect((await rejection(refreshSession(deps, { credentials: bearer(token) }))).code).toBe('InvalidToken');
    expect((await rejection(authenticate(deps, { credentials: bearer(token) }))).code).toBe('InvalidToken');
  });

  it('follows a shorter maximum age from the rules', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const login = clock.now();
    clock.advance(DAY);
    await refreshSession({ ...deps, sessionRules: { maxPerUser: 20, maxAgeMs: 2 * DAY } }, { credentials: bearer(signedIn.token) });
    expect((await listSessions(deps, { credentials: bearer(signedIn.token) }))[0]?.expiresAt).toBe(login + 2 * DAY);
  });

  it('refuses an ended session with InvalidToken', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    await logOut(deps, { credentials: bearer(signedIn.token), body: bodyOf({}) });
    expect((await rejection(refreshSession(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');
  });

  it('starts a session for a token without one, aged from when that token was issued', async () => {
    const { deps, clock, tokens, signedIn } = await aliceSignedUp();
    const issuedAt = clock.now() - 2 * DAY;
    const refreshed = await refreshSession(deps, { credentials: bearer(tokens.issueWithoutSession(signedIn.user.id, issuedAt)) });
    const listed = await listSessions(deps, { credentials: bearer(refreshed.token) });
    expect(listed.find((session) => session.current)).toStrictEqual({
      id: expect.any(String),
      createdAt: issuedAt,
      expiresAt: clock.now() + TOKEN_LIFETIME_MS,
      current: true,
    });
  });

  it('exchanges a token without a session once: afterwards it, and every other token without a session, is refused', async () => {
    const { deps, clock, tokens, signedIn } = await aliceSignedUp();
    const legacy = bearer(tokens.issueWithoutSession(signedIn.user.id, clock.now() - 2 * DAY));
    const another = bearer(tokens.issueWithoutSession(signedIn.user.id, clock.now() - DAY));
    const refreshed = await refreshSession(deps, { credentials: legacy });
    for (const used of [legacy, another]) {
      expect((await rejection(refreshSession(deps, { credentials: used }))).code).toBe('InvalidToken');
      expect((await rejection(authenticate(deps, { credentials: used }))).code).toBe('InvalidToken');
    }
    await authenticate(deps, { credentials: bearer(refreshed.token) });
    await authenticate(deps, { credentials: bearer(signedIn.token) });
  });

  it.each(['extendSession', 'exchangeTokenWithoutSession'] as const)(
    'answers User no longer exists to a refresh whose account was deleted between its check and its write (%s)',
    async (write) => {
      const { deps, users, clock, tokens, signedIn } = await aliceSignedUp();
      const token = write === 'extendSession' ? signedIn.token : tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1000);
      const held = holdNextCall(users, write);
      const refreshing = refreshSession(deps, { credentials: bearer(token) });
      await held.reached;
      await users.delete(signedIn.user.id);
      held.release();
      expect((await rejection(refreshing)).code).toBe('UserNoLongerExists');
    },
  );

  it('refuses by the GET /me rules', async () => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(refreshSession(deps, { credentials: NO_CREDENTIALS }))).code).toBe('MissingAuthorization');
    expect((await rejection(refreshSession(deps, { credentials: bearer('garbage') }))).code).toBe('InvalidToken');
  });
});

import { describe, expect, it } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { listSessions } from './list-sessions.js';
import { logOut } from './log-out.js';
import { refreshSession } from './refresh-session.js';
import { TOKEN_LIFETIME_MS } from './session.js';

const DAY = 24 * 60 * 60 * 1000;

describe('refreshSession', () => {
  it('answers a new 7-day token of the same session and moves its expiry', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const [before] = await listSessions(deps, signedIn.token);
    clock.advance(DAY);
    const refreshed = await refreshSession(deps, signedIn.token);
    expect(refreshed.user).toStrictEqual(signedIn.user);
    expect(refreshed.token).not.toBe(signedIn.token);
    const [after] = await listSessions(deps, refreshed.token);
    expect(after).toStrictEqual({ ...before, expiresAt: clock.now() + TOKEN_LIFETIME_MS, current: true });
  });

  it('keeps older tokens of the session valid until their own expiry, and the new one past it', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    clock.advance(6 * DAY);
    const refreshed = await refreshSession(deps, signedIn.token);
    await authenticate(deps, signedIn.token);
    clock.advance(DAY);
    expect((await rejection(authenticate(deps, signedIn.token))).code).toBe('InvalidToken');
    await authenticate(deps, refreshed.token);
  });

  it('never lets a session live past its login plus the maximum age, then refuses it', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const login = clock.now();
    let token = signedIn.token;
    for (let day = 6; day < 30; day += 6) {
      clock.set(login + day * DAY);
      token = (await refreshSession(deps, token)).token;
    }
    const [session] = await listSessions(deps, token);
    expect(session?.expiresAt).toBe(login + 30 * DAY);
    clock.set(login + 30 * DAY);
    expect((await rejection(refreshSession(deps, token))).code).toBe('InvalidToken');
    expect((await rejection(authenticate(deps, token))).code).toBe('InvalidToken');
  });

  it('follows a shorter maximum age from the rules', async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const login = clock.now();
    clock.advance(DAY);
    await refreshSession({ ...deps, sessionRules: { maxPerUser: 20, maxAgeMs: 2 * DAY } }, signedIn.token);
    expect((await listSessions(deps, signedIn.token))[0]?.expiresAt).toBe(login + 2 * DAY);
  });

  it('refuses an ended session with InvalidToken', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    await logOut(deps, signedIn.token, {});
    expect((await rejection(refreshSession(deps, signedIn.token))).code).toBe('InvalidToken');
  });

  it('starts a session for a token without one, aged from when that token was issued', async () => {
    const { deps, clock, tokens, signedIn } = await aliceSignedUp();
    const issuedAt = clock.now() - 2 * DAY;
    const refreshed = await refreshSession(deps, tokens.issueWithoutSession(signedIn.user.id, issuedAt));
    const listed = await listSessions(deps, refreshed.token);
    expect(listed.find((session) => session.current)).toStrictEqual({
      id: expect.any(String),
      createdAt: issuedAt,
      expiresAt: clock.now() + TOKEN_LIFETIME_MS,
      current: true,
    });
  });

  it('refuses by the GET /me rules', async () => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(refreshSession(deps, null))).code).toBe('MissingAuthorization');
    expect((await rejection(refreshSession(deps, 'garbage'))).code).toBe('InvalidToken');
  });
});

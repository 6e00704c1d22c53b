import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { logIn } from './log-in.js';
import { listSessions } from './list-sessions.js';
import { TOKEN_LIFETIME_MS } from './session.js';
import { signUp } from './sign-up.js';

describe('listSessions', () => {
  it("lists the account's live sessions newest first, marking the caller's own, with ids and times only", async () => {
    const { deps, clock, signedIn } = await aliceSignedUp();
    const start = clock.now();
    clock.advance(1000);
    const second = await logIn(deps, { body: bodyOf(ALICE) });
    clock.advance(1000);
    await logIn(deps, { body: bodyOf(ALICE) });
    const listed = await listSessions(deps, { credentials: bearer(second.token) });
    expect(listed).toStrictEqual([
      { id: expect.any(String), createdAt: start + 2000, expiresAt: start + 2000 + TOKEN_LIFETIME_MS, current: false },
      { id: expect.any(String), createdAt: start + 1000, expiresAt: start + 1000 + TOKEN_LIFETIME_MS, current: true },
      { id: expect.any(String), createdAt: start, expiresAt: start + TOKEN_LIFETIME_MS, current: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(signedIn.token);
  });

  it('leaves out expired sessions and marks none current for a token without a session', async () => {
    const { deps, clock, tokens, signedIn } = await aliceSignedUp();
    clock.advance(TOKEN_LIFETIME_MS - 1000);
    const fresh = await logIn(deps, { body: bodyOf(ALICE) });
    clock.advance(1000);
    const legacy = tokens.issueWithoutSession(signedIn.user.id, clock.now() - 1);
    const listed = await listSessions(deps, { credentials: bearer(legacy) });
    expect(listed).toHaveLength(1);
    expect(listed[0]?.current).toBe(false);
    expect((await listSessions(deps, { credentials: bearer(fresh.token) }))[0]?.current).toBe(true);
  });

  it("shows no other account's sessions, and refuses by the GET /me rules", async () => {
    const { deps } = await aliceSignedUp();
    const bob = await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
    expect(await listSessions(deps, { credentials: bearer(bob.token) })).toHaveLength(1);
    expect((await rejection(listSessions(deps, { credentials: NO_CREDENTIALS }))).code).toBe('MissingAuthorization');
    expect((await rejection(listSessions(deps, { credentials: bearer('garbage') }))).code).toBe('InvalidToken');
  });
});

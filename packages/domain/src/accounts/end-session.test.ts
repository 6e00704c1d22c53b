import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { endSession } from './end-session.js';
import { listSessions } from './list-sessions.js';
import { logIn } from './log-in.js';
import { signUp } from './sign-up.js';

describe('endSession', () => {
  it('ends one session of the account, whose tokens are refused from then on', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    const [, theirs] = await listSessions(deps, { credentials: bearer(phone.token) });
    await endSession(deps, { credentials: bearer(phone.token), sessionId: theirs?.id as string });
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');
    expect((await authenticate(deps, { credentials: bearer(phone.token) })).user.id).toBe(signedIn.user.id);
  });

  it("ends the caller's own session when it names it", async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, { credentials: bearer(signedIn.token) });
    await endSession(deps, { credentials: bearer(signedIn.token), sessionId: own?.id as string });
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('InvalidToken');
  });

  it("answers SessionNotFound for an id that is no live session of the account, another account's included, ending nothing", async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const bob = await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
    const [bobs] = await listSessions(deps, { credentials: bearer(bob.token) });
    for (const id of [bobs?.id as string, 'nope', '', '{"$ne":null}']) {
      const error = await rejection(endSession(deps, { credentials: bearer(signedIn.token), sessionId: id }));
      expect(error.code).toBe('SessionNotFound');
    }
    await authenticate(deps, { credentials: bearer(bob.token) });
    await authenticate(deps, { credentials: bearer(signedIn.token) });
  });

  it('answers SessionNotFound for a session that already ended', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, { credentials: bearer(signedIn.token) });
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    await endSession(deps, { credentials: bearer(phone.token), sessionId: own?.id as string });
    expect((await rejection(endSession(deps, { credentials: bearer(phone.token), sessionId: own?.id as string }))).code).toBe('SessionNotFound');
  });

  it('refuses by the GET /me rules before anything ends', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, { credentials: bearer(signedIn.token) });
    expect((await rejection(endSession(deps, { credentials: NO_CREDENTIALS, sessionId: own?.id as string }))).code).toBe('MissingAuthorization');
    expect((await rejection(endSession(deps, { credentials: bearer('garbage'), sessionId: own?.id as string }))).code).toBe('InvalidToken');
    await authenticate(deps, { credentials: bearer(signedIn.token) });
  });
});

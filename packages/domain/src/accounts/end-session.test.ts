import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { endSession } from './end-session.js';
import { listSessions } from './list-sessions.js';
import { logIn } from './log-in.js';
import { signUp } from './sign-up.js';

describe('endSession', () => {
  it('ends one session of the account, whose tokens are refused from then on', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const phone = await logIn(deps, ALICE);
    const [, theirs] = await listSessions(deps, bearer(phone.token));
    await endSession(deps, bearer(phone.token), theirs?.id as string);
    expect((await rejection(authenticate(deps, bearer(signedIn.token)))).code).toBe('InvalidToken');
    expect((await authenticate(deps, bearer(phone.token))).user.id).toBe(signedIn.user.id);
  });

  it("ends the caller's own session when it names it", async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, bearer(signedIn.token));
    await endSession(deps, bearer(signedIn.token), own?.id as string);
    expect((await rejection(authenticate(deps, bearer(signedIn.token)))).code).toBe('InvalidToken');
  });

  it("answers SessionNotFound for an id that is no live session of the account, another account's included, ending nothing", async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const bob = await signUp(deps, { ...ALICE, email: 'bob@example.com' });
    const [bobs] = await listSessions(deps, bearer(bob.token));
    for (const id of [bobs?.id as string, 'nope', '', '{"$ne":null}']) {
      const error = await rejection(endSession(deps, bearer(signedIn.token), id));
      expect([error.code, error.message]).toEqual(['SessionNotFound', 'Session not found']);
    }
    await authenticate(deps, bearer(bob.token));
    await authenticate(deps, bearer(signedIn.token));
  });

  it('answers SessionNotFound for a session that already ended', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, bearer(signedIn.token));
    const phone = await logIn(deps, ALICE);
    await endSession(deps, bearer(phone.token), own?.id as string);
    expect((await rejection(endSession(deps, bearer(phone.token), own?.id as string))).code).toBe('SessionNotFound');
  });

  it('refuses by the GET /me rules before anything ends', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [own] = await listSessions(deps, bearer(signedIn.token));
    expect((await rejection(endSession(deps, NO_CREDENTIALS, own?.id as string))).code).toBe('MissingAuthorization');
    expect((await rejection(endSession(deps, bearer('garbage'), own?.id as string))).code).toBe('InvalidToken');
    await authenticate(deps, bearer(signedIn.token));
  });
});

import { describe, expect, it, vi } from 'vitest';
import { idsThatNameNothing } from '../test-support/ids.js';
import { currentUser } from './current-user.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';

describe('currentUser', () => {
  it('returns exactly the public user the token names', async () => {
    const { deps, session } = await aliceSignedUp();
    const user = await currentUser(deps, session.token);
    expect(user).toStrictEqual({ id: session.user.id, email: 'alice@example.com', name: 'Alice' });
    expect(user).not.toHaveProperty('passwordHash');
  });

  it('refuses a missing token (null) with MissingAuthorization, without verifying anything', async () => {
    const { deps, tokens, users } = await aliceSignedUp();
    const verifySpy = vi.spyOn(tokens, 'verify');
    const findSpy = vi.spyOn(users, 'findById');
    const error = await rejection(currentUser(deps, null));
    expect(error.code).toBe('MissingAuthorization');
    expect(error.message).toBe('Missing authorization header');
    expect(verifySpy).not.toHaveBeenCalled();
    expect(findSpy).not.toHaveBeenCalled();
  });

  it.each(['', 'garbage', 'token:', 'Bearer token:1', 'a.b.c'])(
    'refuses the token %j with InvalidToken, without a look-up',
    async (token) => {
      const { deps, users } = await aliceSignedUp();
      const findSpy = vi.spyOn(users, 'findById');
      const error = await rejection(currentUser(deps, token));
      expect(error.code).toBe('InvalidToken');
      expect(error.message).toBe('Invalid token');
      expect(findSpy).not.toHaveBeenCalled();
    },
  );

  it('refuses a valid token for a user that no longer exists with UserNoLongerExists', async () => {
    const { session, tokens } = await aliceSignedUp();
    // The same token against a store that no longer holds the user (the in-memory store has no delete).
    const emptiedStore = createInMemoryUserRepository();
    const error = await rejection(currentUser({ users: emptiedStore, tokens }, session.token));
    expect(error.code).toBe('UserNoLongerExists');
    expect(error.message).toBe('User no longer exists');
  });

  // The fake token service refuses `token:` with nothing after it; that case is InvalidToken above.
  const namesNoUser = idsThatNameNothing.filter((id) => id !== '');
  it.each(namesNoUser.map((id) => [id.length > 40 ? `${id.slice(0, 20)}… (${id.length} chars)` : id, id]))(
    'refuses a valid token whose sub names no user (%j) with UserNoLongerExists',
    async (_, id) => {
      const { deps, tokens } = await aliceSignedUp();
      const token = await tokens.issue(id);
      const error = await rejection(currentUser(deps, token));
      expect(error.code).toBe('UserNoLongerExists');
    },
  );

  it('looks the user up by the id the token names', async () => {
    const { deps, users, session } = await aliceSignedUp();
    const findSpy = vi.spyOn(users, 'findById');
    await currentUser(deps, session.token);
    expect(findSpy).toHaveBeenCalledTimes(1);
    expect(findSpy).toHaveBeenCalledWith(session.user.id);
  });
});

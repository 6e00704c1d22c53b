import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';
import { authenticateCaller } from './caller.js';
import { NO_CREDENTIALS, OTHER_CREDENTIALS, bearer } from './credentials.js';

describe('authenticateCaller', () => {
  it('names the user whose valid token was presented', async () => {
    const { deps, credentials, signedIn } = await aliceSignedUp();
    expect(await authenticateCaller(deps, { credentials })).toStrictEqual({ kind: 'user', userId: signedIn.user.id });
  });

  it.each([
    ['no credentials', NO_CREDENTIALS, 'MissingAuthorization'],
    ['credentials that are not a bearer token', OTHER_CREDENTIALS, 'MissingAuthorization'],
    ['an empty bearer token', bearer(''), 'InvalidToken'],
    ['a token that fails verification', bearer('garbage'), 'InvalidToken'],
    ['a valid token of a user who does not exist', bearer('token:000000000000000000000099:s1:0:9999999999999'), 'UserNoLongerExists'],
  ] as const)('refuses %s by the GET /me rules', async (_, credentials, code) => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(authenticateCaller(deps, { credentials }))).code).toBe(code);
  });

  it('checks the token before it looks anyone up', async () => {
    const { deps, users } = await aliceSignedUp();
    const findSpy = vi.spyOn(users, 'findWithSession');
    await rejection(authenticateCaller(deps, { credentials: bearer('garbage') }));
    expect(findSpy).not.toHaveBeenCalled();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';
import { ANONYMOUS, authenticateCaller, resolveCaller, type Caller } from './caller.js';

describe('authenticateCaller', () => {
  it('names the user whose valid token was presented', async () => {
    const { deps, session } = await aliceSignedUp();
    expect(await authenticateCaller(deps, session.token)).toStrictEqual({ kind: 'user', userId: session.user.id });
  });

  it.each([
    ['credentials that are not a bearer token (null)', null, 'MissingAuthorization'],
    ['an empty bearer token', '', 'InvalidToken'],
    ['a token that fails verification', 'garbage', 'InvalidToken'],
    ['a valid token of a user who does not exist', 'token:000000000000000000000099', 'UserNoLongerExists'],
  ] as const)('refuses %s by the GET /me rules', async (_, token, code) => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(authenticateCaller(deps, token))).code).toBe(code);
  });

  it('checks the token before it looks anyone up', async () => {
    const { deps, users } = await aliceSignedUp();
    const findSpy = vi.spyOn(users, 'findById');
    await rejection(authenticateCaller(deps, 'garbage'));
    expect(findSpy).not.toHaveBeenCalled();
  });
});

describe('resolveCaller', () => {
  it('answers a caller given as it is, and calls a source function once', async () => {
    const user: Caller = { kind: 'user', userId: 'u1' };
    expect(await resolveCaller(ANONYMOUS)).toBe(ANONYMOUS);
    const source = vi.fn(async () => user);
    expect(await resolveCaller(source)).toBe(user);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('passes a refusal from the source on', async () => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(resolveCaller(() => authenticateCaller(deps, 'garbage')))).code).toBe('InvalidToken');
  });
});

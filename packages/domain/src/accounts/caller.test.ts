import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { aliceSignedUp } from '../test-support/signed-up.js';
import { ANONYMOUS, authenticateCaller, isPending, resolveCaller, type Caller } from './caller.js';

describe('authenticateCaller', () => {
  it('names the user whose valid token was presented', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    expect(await authenticateCaller(deps, signedIn.token)).toStrictEqual({ kind: 'user', userId: signedIn.user.id });
  });

  it.each([
    ['credentials that are not a bearer token (null)', null, 'MissingAuthorization'],
    ['an empty bearer token', '', 'InvalidToken'],
    ['a token that fails verification', 'garbage', 'InvalidToken'],
    ['a valid token of a user who does not exist', 'token:000000000000000000000099:s1:0:9999999999999', 'UserNoLongerExists'],
  ] as const)('refuses %s by the GET /me rules', async (_, token, code) => {
    const { deps } = await aliceSignedUp();
    expect((await rejection(authenticateCaller(deps, token))).code).toBe(code);
  });

  it('checks the token before it looks anyone up', async () => {
    const { deps, users } = await aliceSignedUp();
    const findSpy = vi.spyOn(users, 'findWithSession');
    await rejection(authenticateCaller(deps, 'garbage'));
    expect(findSpy).not.toHaveBeenCalled();
  });
});

describe('resolveCaller', () => {
  it('answers a known caller at once, as it is: nothing pending, nothing to wait for', () => {
    const answer = resolveCaller(ANONYMOUS);
    expect(answer).toBe(ANONYMOUS);
    expect(isPending(answer)).toBe(false);
  });

  it('calls a source function once and answers its pending caller', async () => {
    const user: Caller = { kind: 'user', userId: 'u1' };
    const source = vi.fn(async () => user);
    const answer = resolveCaller(source);
    expect(isPending(answer)).toBe(true);
    expect(await answer).toBe(user);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('passes a refusal from the source on', async () => {
    const { deps } = await aliceSignedUp();
    const answer = resolveCaller(() => authenticateCaller(deps, 'garbage'));
    expect(isPending(answer)).toBe(true);
    expect((await rejection(answer as Promise<Caller>)).code).toBe('InvalidToken');
  });
});

import { NO_CREDENTIALS, bearer } from './credentials.js';
import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { logIn } from './log-in.js';
import { logOut } from './log-out.js';

/** Alice with three sessions (her signup's and two logins) and a token without a session. */
async function aliceWithSessions() {
  const alice = await aliceSignedUp();
  const { deps, clock, tokens } = alice;
  clock.advance(1);
  const second = await logIn(deps, { body: bodyOf(ALICE) });
  clock.advance(1);
  const third = await logIn(deps, { body: bodyOf(ALICE) });
  const legacy = tokens.issueWithoutSession(alice.signedIn.user.id, clock.now() - 10_000);
  const works = async (token: string) => authenticate(deps, { credentials: bearer(token) }).then(() => true, () => false);
  return { ...alice, tokensOf: [alice.signedIn.token, second.token, third.token], legacy, works };
}

describe('logOut', () => {
  it('ends the caller\'s session only, by default (no body) and with scope "current"', async () => {
    for (const input of [{}, { scope: 'current' }]) {
      const { deps, tokensOf: [mine, ...others], legacy, works } = await aliceWithSessions();
      await logOut(deps, { credentials: bearer(mine as string), body: bodyOf(input) });
      expect(await Promise.all([mine, ...others, legacy].map((t) => works(t as string)))).toEqual([false, true, true, true]);
    }
  });

  it('ends every other session and the tokens without one, with scope "others"', async () => {
    const { deps, tokensOf: [mine, ...others], legacy, works } = await aliceWithSessions();
    await logOut(deps, { credentials: bearer(mine as string), body: bodyOf({ scope: 'others' }) });
    expect(await Promise.all([mine, ...others, legacy].map((t) => works(t as string)))).toEqual([true, false, false, false]);
  });

  it('ends everything, with scope "all"', async () => {
    const { deps, tokensOf, legacy, works } = await aliceWithSessions();
    await logOut(deps, { credentials: bearer(tokensOf[1] as string), body: bodyOf({ scope: 'all' }) });
    expect(await Promise.all([...tokensOf, legacy].map((t) => works(t)))).toEqual([false, false, false, false]);
  });

  it('with a token without a session: "current" ends every such token, "others" every session', async () => {
    const current = await aliceWithSessions();
    await logOut(current.deps, { credentials: bearer(current.legacy), body: bodyOf({}) });
    expect(await Promise.all([...current.tokensOf, current.legacy].map((t) => current.works(t)))).toEqual([true, true, true, false]);

    const others = await aliceWithSessions();
    await logOut(others.deps, { credentials: bearer(others.legacy), body: bodyOf({ scope: 'others' }) });
    expect(await Promise.all([...others.tokensOf, others.legacy].map((t) => others.works(t)))).toEqual([false, false, false, true]);
  });

  it('checks the token before it reads the body, and ends nothing for a refused one', async () => {
    const { deps, tokensOf, works } = await aliceWithSessions();
    const readBody = vi.fn(async () => ({ scope: 'all' }));
    for (const [credentials, code] of [[NO_CREDENTIALS, 'MissingAuthorization'], [bearer('garbage'), 'InvalidToken']] as const) {
      expect((await rejection(logOut(deps, { credentials, body: readBody }))).code).toBe(code);
    }
    expect(readBody).not.toHaveBeenCalled();
    expect(await Promise.all(tokensOf.map((t) => works(t)))).toEqual([true, true, true]);
  });

  it.each([[{ scope: 'everything' }], [{ scope: 'ALL' }], [{ scope: null }], [{ scope: ['all'] }]])(
    'refuses the body %j with ValidationFailed at scope, ending nothing',
    async (input) => {
      const { deps, tokensOf, works } = await aliceWithSessions();
      const error = await rejection(logOut(deps, { credentials: bearer(tokensOf[0] as string), body: bodyOf(input) }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues?.map((issue) => issue.path)).toEqual(['scope']);
      expect(await Promise.all(tokensOf.map((t) => works(t)))).toEqual([true, true, true]);
    },
  );

  it('ignores unknown fields', async () => {
    const { deps, tokensOf, works } = await aliceWithSessions();
    await logOut(deps, { credentials: bearer(tokensOf[0] as string), body: bodyOf({ scope: 'current', everywhere: true }) });
    expect(await Promise.all(tokensOf.map((t) => works(t)))).toEqual([false, true, true]);
  });
});

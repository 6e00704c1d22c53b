import { describe, expect, it, vi } from 'vitest';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { logIn } from './log-in.js';
import type { PasswordHasher } from './ports.js';
import { DEFAULT_SESSION_RULES, TOKEN_LIFETIME_MS } from './session.js';
import { signUp } from './sign-up.js';
import { rejection } from '../test-support/rejection.js';
import { bodyOf } from '../test-support/signed-up.js';

const PASSWORD = 'correct horse battery';

async function setup() {
  const users = createInMemoryUserRepository();
  const hasher = fakePasswordHasher();
  const clock = manualClock();
  const tokens = fakeTokenService(clock);
  const deps = { users, hasher, tokens, clock };
  const { user } = await signUp(deps, { body: bodyOf({ email: 'alice@example.com', name: 'Alice', password: PASSWORD }) });
  return { users, hasher, tokens, clock, alice: user, deps };
}

describe('logIn', () => {
  it('starts a session and returns exactly a 7-day token of it and the public user', async () => {
    const { deps, users, clock, alice } = await setup();
    clock.advance(5000);
    const now = clock.now();
    const signedIn = await logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) });
    const [session] = await users.listSessions(alice.id, now);
    expect(session).toStrictEqual({ id: expect.any(String), createdAt: now, expiresAt: now + TOKEN_LIFETIME_MS });
    expect(signedIn).toStrictEqual({
      token: `token:${alice.id}:${session?.id}:${now}:${now + TOKEN_LIFETIME_MS}`,
      user: { id: alice.id, email: 'alice@example.com', name: 'Alice' },
    });
    expect(await users.listSessions(alice.id, now)).toHaveLength(2);
  });

  it('ends the oldest session past the bound of sessions per account', async () => {
    const { users, alice, deps, clock } = await setup();
    const first = (await users.listSessions(alice.id, clock.now()))[0];
    const rules = { ...DEFAULT_SESSION_RULES, maxPerUser: 2 };
    for (let i = 0; i < 2; i++) {
      clock.advance(1);
      await logIn({ ...deps, sessionRules: rules }, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) });
    }
    const live = await users.listSessions(alice.id, clock.now());
    expect(live).toHaveLength(2);
    expect(live.map((s) => s.id)).not.toContain(first?.id);
  });

  it('caps a new session at the maximum age when that is shorter than a token', async () => {
    const { users, alice, deps, clock } = await setup();
    const now = clock.now();
    await logIn({ ...deps, sessionRules: { maxPerUser: 20, maxAgeMs: 60_000 } }, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) });
    expect((await users.listSessions(alice.id, now))[0]?.expiresAt).toBe(now + 60_000);
  });

  it('refuses the login of an account deleted between the password check and the session', async () => {
    const { users, alice, deps } = await setup();
    vi.spyOn(users, 'startSession').mockImplementationOnce(async () => {
      await users.delete(alice.id);
      return null;
    });
    expect((await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) }))).code).toBe('InvalidCredentials');
  });

  it('verifies the password against the stored hash exactly once', async () => {
    const { deps, hasher } = await setup();
    const verifySpy = vi.spyOn(hasher, 'verify');
    await logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) });
    expect(verifySpy).toHaveBeenCalledTimes(1);
    expect(verifySpy).toHaveBeenCalledWith(PASSWORD, `fake-hash:${PASSWORD}`);
  });

  it.each([' Alice@Example.COM ', 'ALICE@EXAMPLE.COM', '\talice@example.com\n'])(
    'trims and lower-cases the e-mail (%j) before the look-up',
    async (email) => {
      const { deps, users, alice } = await setup();
      const findSpy = vi.spyOn(users, 'findByEmail');
      const session = await logIn(deps, { body: bodyOf({ email, password: PASSWORD }) });
      expect(findSpy).toHaveBeenCalledWith('alice@example.com');
      expect(session.user.id).toBe(alice.id);
    },
  );

  it('ignores unknown fields', async () => {
    const { deps, alice } = await setup();
    const session = await logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD, remember: true }) });
    expect(session.user.id).toBe(alice.id);
  });

  describe('refusals', () => {
    it.each([
      ['a wrong password', 'alice@example.com', 'wrong password'],
      ['the password in another case', 'alice@example.com', PASSWORD.toUpperCase()],
      ['the password with a trailing space', 'alice@example.com', `${PASSWORD} `],
      ['an unknown e-mail', 'bob@example.com', PASSWORD],
    ])('refuses %s with InvalidCredentials and issues no token', async (_, email, password) => {
      const { deps, tokens } = await setup();
      const issueSpy = vi.spyOn(tokens, 'issue');
      const error = await rejection(logIn(deps, { body: bodyOf({ email, password }) }));
      expect(error.code).toBe('InvalidCredentials');
      expect(error.issues).toBeUndefined();
      expect(issueSpy).not.toHaveBeenCalled();
    });

    it('gives a wrong password and an unknown e-mail the same error', async () => {
      const { deps } = await setup();
      const wrongPassword = await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong password' }) }));
      const unknownEmail = await rejection(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: 'wrong password' }) }));
      expect({ code: unknownEmail.code, message: unknownEmail.message }).toEqual({
        code: wrongPassword.code,
        message: wrongPassword.message,
      });
    });

    it('verifies once against the stored hash for a wrong password', async () => {
      const { deps, hasher } = await setup();
      const verifySpy = vi.spyOn(hasher, 'verify');
      await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong password' }) }));
      expect(verifySpy).toHaveBeenCalledTimes(1);
      expect(verifySpy).toHaveBeenCalledWith('wrong password', `fake-hash:${PASSWORD}`);
    });

    it('verifies exactly once against the dummy hash for an unknown e-mail, so both failures cost the same', async () => {
      const { deps, hasher } = await setup();
      const verifySpy = vi.spyOn(hasher, 'verify');
      await rejection(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: 'some password' }) }));
      expect(verifySpy).toHaveBeenCalledTimes(1);
      expect(verifySpy).toHaveBeenCalledWith('some password', hasher.dummyHash);
    });

    it('refuses an unknown e-mail even if the dummy hash were to match', async () => {
      const { users, tokens, clock } = await setup();
      const yesToEverything: PasswordHasher = {
        dummyHash: 'dummy',
        hash: async (password) => password,
        verify: async () => true,
      };
      const error = await rejection(logIn({ users, tokens, clock, hasher: yesToEverything }, { body: bodyOf({ email: 'bob@example.com', password: 'x' }) }));
      expect(error.code).toBe('InvalidCredentials');
    });

    it('accepts a login password longer than the signup limit for validation (it just does not match)', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'p'.repeat(500) }) }));
      expect(error.code).toBe('InvalidCredentials');
    });
  });

  describe('validation', () => {
    it('validates before any look-up or verification', async () => {
      const { deps, users, hasher } = await setup();
      const findSpy = vi.spyOn(users, 'findByEmail');
      const verifySpy = vi.spyOn(hasher, 'verify');
      for (const input of [null, {}, { email: 'alice@example.com', password: '' }, { email: 'nope', password: PASSWORD }]) {
        const error = await rejection(logIn(deps, { body: bodyOf(input) }));
        expect(error.code).toBe('ValidationFailed');
      }
      expect(findSpy).not.toHaveBeenCalled();
      expect(verifySpy).not.toHaveBeenCalled();
    });

    it('refuses an empty password', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: '' }) }));
      expect(error.issues).toEqual([{ path: 'password', message: 'must not be empty' }]);
    });

    it('accepts a one-character password for validation', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'x' }) }));
      expect(error.code).toBe('InvalidCredentials');
    });

    it.each(['alice', 'alice@', '@example.com', 'alice@example', 'al ice@example.com'])(
      'refuses the malformed e-mail %j',
      async (email) => {
        const { deps } = await setup();
        const error = await rejection(logIn(deps, { body: bodyOf({ email, password: PASSWORD }) }));
        expect(error.issues).toEqual([{ path: 'email', message: 'must be a valid e-mail address' }]);
      },
    );

    it('lists every problem', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf({ email: 7, password: 7 }) }));
      expect(error.issues).toEqual([
        { path: 'email', message: 'must be a string' },
        { path: 'password', message: 'must be a string' },
      ]);
    });

    it('says both fields are required for an empty object', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf({}) }));
      expect(error.issues).toEqual([
        { path: 'email', message: 'is required' },
        { path: 'password', message: 'is required' },
      ]);
    });

    it('reports a non-object body at path ""', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { body: bodyOf('alice@example.com') }));
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { logIn } from './log-in.js';
import type { PasswordHasher } from './ports.js';
import { signUp } from './sign-up.js';
import { rejection } from '../test-support/rejection.js';

const PASSWORD = 'correct horse battery';

async function setup() {
  const users = createInMemoryUserRepository();
  const hasher = fakePasswordHasher();
  const tokens = fakeTokenService();
  const clock = manualClock();
  const { user } = await signUp({ users, hasher, tokens, clock }, { email: 'alice@example.com', name: 'Alice', password: PASSWORD });
  return { users, hasher, tokens, alice: user, deps: { users, hasher, tokens } };
}

describe('logIn', () => {
  it('returns exactly a token for the user and the public user', async () => {
    const { deps, alice } = await setup();
    const session = await logIn(deps, { email: 'alice@example.com', password: PASSWORD });
    expect(session).toStrictEqual({
      token: `token:${alice.id}`,
      user: { id: alice.id, email: 'alice@example.com', name: 'Alice' },
    });
  });

  it('verifies the password against the stored hash exactly once', async () => {
    const { deps, hasher } = await setup();
    const verifySpy = vi.spyOn(hasher, 'verify');
    await logIn(deps, { email: 'alice@example.com', password: PASSWORD });
    expect(verifySpy).toHaveBeenCalledTimes(1);
    expect(verifySpy).toHaveBeenCalledWith(PASSWORD, `fake-hash:${PASSWORD}`);
  });

  it.each([' Alice@Example.COM ', 'ALICE@EXAMPLE.COM', '\talice@example.com\n'])(
    'trims and lower-cases the e-mail (%j) before the look-up',
    async (email) => {
      const { deps, users, alice } = await setup();
      const findSpy = vi.spyOn(users, 'findByEmail');
      const session = await logIn(deps, { email, password: PASSWORD });
      expect(findSpy).toHaveBeenCalledWith('alice@example.com');
      expect(session.user.id).toBe(alice.id);
    },
  );

  it('ignores unknown fields', async () => {
    const { deps, alice } = await setup();
    const session = await logIn(deps, { email: 'alice@example.com', password: PASSWORD, remember: true });
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
      const error = await rejection(logIn(deps, { email, password }));
      expect(error.code).toBe('InvalidCredentials');
      expect(error.message).toBe('Invalid email or password');
      expect(error.issues).toBeUndefined();
      expect(issueSpy).not.toHaveBeenCalled();
    });

    it('gives a wrong password and an unknown e-mail the same error', async () => {
      const { deps } = await setup();
      const wrongPassword = await rejection(logIn(deps, { email: 'alice@example.com', password: 'wrong password' }));
      const unknownEmail = await rejection(logIn(deps, { email: 'bob@example.com', password: 'wrong password' }));
      expect({ code: unknownEmail.code, message: unknownEmail.message }).toEqual({
        code: wrongPassword.code,
        message: wrongPassword.message,
      });
    });

    it('verifies once against the stored hash for a wrong password', async () => {
      const { deps, hasher } = await setup();
      const verifySpy = vi.spyOn(hasher, 'verify');
      await rejection(logIn(deps, { email: 'alice@example.com', password: 'wrong password' }));
      expect(verifySpy).toHaveBeenCalledTimes(1);
      expect(verifySpy).toHaveBeenCalledWith('wrong password', `fake-hash:${PASSWORD}`);
    });

    it('verifies exactly once against the dummy hash for an unknown e-mail, so both failures cost the same', async () => {
      const { deps, hasher } = await setup();
      const verifySpy = vi.spyOn(hasher, 'verify');
      await rejection(logIn(deps, { email: 'bob@example.com', password: 'some password' }));
      expect(verifySpy).toHaveBeenCalledTimes(1);
      expect(verifySpy).toHaveBeenCalledWith('some password', hasher.dummyHash);
    });

    it('refuses an unknown e-mail even if the dummy hash were to match', async () => {
      const { users, tokens } = await setup();
      const yesToEverything: PasswordHasher = {
        dummyHash: 'dummy',
        hash: async (password) => password,
        verify: async () => true,
      };
      const error = await rejection(logIn({ users, tokens, hasher: yesToEverything }, { email: 'bob@example.com', password: 'x' }));
      expect(error.code).toBe('InvalidCredentials');
    });

    it('accepts a login password longer than the signup limit for validation (it just does not match)', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { email: 'alice@example.com', password: 'p'.repeat(500) }));
      expect(error.code).toBe('InvalidCredentials');
    });
  });

  describe('validation', () => {
    it('validates before any look-up or verification', async () => {
      const { deps, users, hasher } = await setup();
      const findSpy = vi.spyOn(users, 'findByEmail');
      const verifySpy = vi.spyOn(hasher, 'verify');
      for (const input of [null, {}, { email: 'alice@example.com', password: '' }, { email: 'nope', password: PASSWORD }]) {
        const error = await rejection(logIn(deps, input));
        expect(error.code).toBe('ValidationFailed');
      }
      expect(findSpy).not.toHaveBeenCalled();
      expect(verifySpy).not.toHaveBeenCalled();
    });

    it('refuses an empty password', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { email: 'alice@example.com', password: '' }));
      expect(error.issues).toEqual([{ path: 'password', message: 'must not be empty' }]);
    });

    it('accepts a one-character password for validation', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { email: 'alice@example.com', password: 'x' }));
      expect(error.code).toBe('InvalidCredentials');
    });

    it.each(['alice', 'alice@', '@example.com', 'alice@example', 'al ice@example.com'])(
      'refuses the malformed e-mail %j',
      async (email) => {
        const { deps } = await setup();
        const error = await rejection(logIn(deps, { email, password: PASSWORD }));
        expect(error.issues).toEqual([{ path: 'email', message: 'must be a valid e-mail address' }]);
      },
    );

    it('lists every problem', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, { email: 7, password: 7 }));
      expect(error.issues).toEqual([
        { path: 'email', message: 'must be a string' },
        { path: 'password', message: 'must be a string' },
      ]);
    });

    it('says both fields are required for an empty object', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, {}));
      expect(error.issues).toEqual([
        { path: 'email', message: 'is required' },
        { path: 'password', message: 'is required' },
      ]);
    });

    it('reports a non-object body at path ""', async () => {
      const { deps } = await setup();
      const error = await rejection(logIn(deps, 'alice@example.com'));
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });
  });
});

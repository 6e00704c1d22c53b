import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import type { PasswordHasher } from './ports.js';
import { TOKEN_LIFETIME_MS } from './session.js';
import { signUp } from './sign-up.js';
import { rejection } from '../test-support/rejection.js';
import { ALICE, bodyOf, mailDeps } from '../test-support/signed-up.js';

const T0 = Date.UTC(2026, 0, 1, 12, 30, 15, 250);
const PASSWORD = 'correct horse battery';

function setup() {
  const users = createInMemoryUserRepository();
  const hasher = fakePasswordHasher();
  const tokens = fakeTokenService();
  const clock = manualClock(T0);
  return { users, hasher, tokens, clock, deps: { users, hasher, tokens, clock } };
}

function validInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: 'alice@example.com', name: 'Alice', password: PASSWORD, ...overrides };
}

/** The DomainError a promise rejects with; fails the test if it resolves or rejects with anything else. */
describe('signUp', () => {
  describe('success', () => {
    it('starts the first session and returns exactly a 7-day token of it and the public user', async () => {
      const { deps, users } = setup();
      const session = await signUp(deps, { body: bodyOf(validInput()) });
      const stored = await users.findByEmail('alice@example.com');
      expect(stored).not.toBeNull();
      const sessions = await users.listSessions(stored?.id as string, T0);
      expect(sessions).toStrictEqual([{ id: expect.any(String), createdAt: T0, expiresAt: T0 + TOKEN_LIFETIME_MS }]);
      expect(session).toStrictEqual({
        token: `token:${stored?.id}:${sessions[0]?.id}:${T0}:${T0 + TOKEN_LIFETIME_MS}`,
        user: { id: stored?.id, email: 'alice@example.com', name: 'Alice' },
      });
      expect(Object.keys(session.user).sort()).toEqual(['email', 'id', 'name']);
      expect(JSON.stringify(session)).not.toContain('fake-hash');
    });

    it('trims and lower-cases the e-mail before validating and storing it', async () => {
      const { deps, users } = setup();
      const session = await signUp(deps, { body: bodyOf(validInput({ email: ' Alice@Example.COM ' })) });
      expect(session.user.email).toBe('alice@example.com');
      expect((await users.findByEmail('alice@example.com'))?.email).toBe('alice@example.com');
      expect(await users.findByEmail(' Alice@Example.COM ')).toBeNull();
    });

    it('accepts an e-mail that is only valid once trimmed (tabs and newlines included)', async () => {
      const { deps } = setup();
      const session = await signUp(deps, { body: bodyOf(validInput({ email: '\t\nBOB@EXAMPLE.ORG \n' })) });
      expect(session.user.email).toBe('bob@example.org');
    });

    it('stores the hash of the password, never the password', async () => {
      const { deps, users, hasher } = setup();
      const hashSpy = vi.spyOn(hasher, 'hash');
      await signUp(deps, { body: bodyOf(validInput()) });
      const stored = await users.findByEmail('alice@example.com');
      expect(hashSpy).toHaveBeenCalledTimes(1);
      expect(hashSpy).toHaveBeenCalledWith(PASSWORD);
      expect(stored?.passwordHash).toBe(`fake-hash:${PASSWORD}`);
      expect(stored?.passwordHash).not.toBe(PASSWORD);
    });

    it('stores exactly the seven user fields, unverified, with both timestamps from the clock', async () => {
      const { deps, users } = setup();
      const session = await signUp(deps, { body: bodyOf(validInput()) });
      expect(await users.findById(session.user.id)).toStrictEqual({
        id: session.user.id,
        email: 'alice@example.com',
        name: 'Alice',
        passwordHash: `fake-hash:${PASSWORD}`,
        emailVerified: false,
        createdAt: T0,
        updatedAt: T0,
      });
    });

    it('reads the clock at signup time, not at setup time', async () => {
      const { deps, users, clock } = setup();
      clock.advance(90_000);
      const session = await signUp(deps, { body: bodyOf(validInput()) });
      const stored = await users.findById(session.user.id);
      expect(stored?.createdAt).toBe(T0 + 90_000);
      expect(stored?.updatedAt).toBe(T0 + 90_000);
    });

    it('ignores unknown fields and never takes id, passwordHash, emailVerified or timestamps from the input', async () => {
      const { deps, users } = setup();
      const insertSpy = vi.spyOn(users, 'insert');
      const session = await signUp(deps, { body: bodyOf(validInput({
          id: 'attacker-chosen-id',
          passwordHash: 'attacker-chosen-hash',
          createdAt: 1,
          updatedAt: 2,
          isAdmin: true,
          emailVerified: true,
        })) });
      expect(insertSpy).toHaveBeenCalledWith(
        {
          email: 'alice@example.com',
          name: 'Alice',
          passwordHash: `fake-hash:${PASSWORD}`,
          emailVerified: false,
          createdAt: T0,
          updatedAt: T0,
        },
        { createdAt: T0, expiresAt: T0 + TOKEN_LIFETIME_MS },
      );
      expect(session.user.id).not.toBe('attacker-chosen-id');
      expect(session).toStrictEqual({
        token: expect.stringMatching(new RegExp(`^token:${session.user.id}:`)),
        user: { id: session.user.id, email: 'alice@example.com', name: 'Alice' },
      });
      expect(await users.findById('attacker-chosen-id')).toBeNull();
      expect(await users.findById(session.user.id)).toStrictEqual({
        id: session.user.id,
        email: 'alice@example.com',
        name: 'Alice',
        passwordHash: `fake-hash:${PASSWORD}`,
        emailVerified: false,
        createdAt: T0,
        updatedAt: T0,
      });
    });

    it('keeps the name exactly as sent (no trimming)', async () => {
      const { deps } = setup();
      const session = await signUp(deps, { body: bodyOf(validInput({ name: '  Ålice 🎉  ' })) });
      expect(session.user.name).toBe('  Ålice 🎉  ');
    });
  });

  describe('e-mail already in use', () => {
    it.each(['alice@example.com', 'ALICE@EXAMPLE.COM', ' Alice@Example.com ', '\talice@example.COM\n'])(
      'refuses %j with 409 EmailAlreadyInUse once alice@example.com exists',
      async (email) => {
        const { deps, users } = setup();
        const first = await signUp(deps, { body: bodyOf(validInput()) });
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ email, name: 'Mallory', password: 'another password' })) }));
        expect(error.code).toBe('EmailAlreadyInUse');
        expect(error.issues).toBeUndefined();
        const stored = await users.findByEmail('alice@example.com');
        expect(stored?.id).toBe(first.user.id);
        expect(stored?.name).toBe('Alice');
        expect(stored?.passwordHash).toBe(`fake-hash:${PASSWORD}`);
      },
    );

    it('does not hash, insert or issue a token for a taken e-mail', async () => {
      const { deps, users, hasher, tokens } = setup();
      await signUp(deps, { body: bodyOf(validInput()) });
      const hashSpy = vi.spyOn(hasher, 'hash');
      const insertSpy = vi.spyOn(users, 'insert');
      const issueSpy = vi.spyOn(tokens, 'issue');
      await rejection(signUp(deps, { body: bodyOf(validInput({ email: 'ALICE@example.com' })) }));
      expect(hashSpy).not.toHaveBeenCalled();
      expect(insertSpy).not.toHaveBeenCalled();
      expect(issueSpy).not.toHaveBeenCalled();
    });

    it('lets exactly one of 20 concurrent signups with one e-mail succeed; the other 19 get EmailAlreadyInUse', async () => {
      const { users, tokens, clock } = setup();
      const fast = fakePasswordHasher();
      // A hasher that yields for a while, so every signup passes the look-up before any inserts.
      const slowHasher: PasswordHasher = {
        dummyHash: fast.dummyHash,
        verify: (password, hash) => fast.verify(password, hash),
        hash: async (password) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return fast.hash(password);
        },
      };
      const insertSpy = vi.spyOn(users, 'insert');
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          signUp({ users, hasher: slowHasher, tokens, clock }, { body: bodyOf(validInput({ email: i % 2 ? ' ALICE@example.com' : 'alice@EXAMPLE.com ', name: `User ${i}` })) }),
        ),
      );

      // Every signup reached the repository: its insert, not the look-up, decided the race.
      expect(insertSpy).toHaveBeenCalledTimes(20);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      for (const r of lost) {
        expect(r.reason).toBeInstanceOf(DomainError);
        expect((r.reason as DomainError).code).toBe('EmailAlreadyInUse');
      }
      const winner = won[0]?.status === 'fulfilled' ? won[0].value : undefined;
      const stored = await users.findByEmail('alice@example.com');
      expect(stored?.id).toBe(winner?.user.id);
      expect(stored?.name).toBe(winner?.user.name);
    });
  });

  describe('validation', () => {
    it('validates before any look-up, hash or insert', async () => {
      const { deps, users, hasher } = setup();
      const findSpy = vi.spyOn(users, 'findByEmail');
      const insertSpy = vi.spyOn(users, 'insert');
      const hashSpy = vi.spyOn(hasher, 'hash');
      for (const input of [null, {}, validInput({ email: 'nope' }), validInput({ password: 'short' }), validInput({ name: '' })]) {
        const error = await rejection(signUp(deps, { body: bodyOf(input) }));
        expect(error.code).toBe('ValidationFailed');
      }
      expect(findSpy).not.toHaveBeenCalled();
      expect(insertSpy).not.toHaveBeenCalled();
      expect(hashSpy).not.toHaveBeenCalled();
    });

    it('lists every problem, each with its field name as the path', async () => {
      const { deps } = setup();
      const error = await rejection(signUp(deps, { body: bodyOf({ email: 'not-an-email', name: '', password: 'short' }) }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues).toEqual([
        { path: 'email', message: 'must be a valid e-mail address' },
        { path: 'name', message: 'must not be empty' },
        { path: 'password', message: 'must be at least 8 characters' },
      ]);
    });

    it('says every field is required for an empty object', async () => {
      const { deps } = setup();
      const error = await rejection(signUp(deps, { body: bodyOf({}) }));
      expect(error.issues).toEqual([
        { path: 'email', message: 'is required' },
        { path: 'name', message: 'is required' },
        { path: 'password', message: 'is required' },
      ]);
    });

    it.each([null, undefined, 'alice@example.com', 42, true])('reports a non-object body (%j) at path ""', async (input) => {
      const { deps } = setup();
      const error = await rejection(signUp(deps, { body: bodyOf(input) }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });

    it('refuses non-string fields', async () => {
      const { deps } = setup();
      const error = await rejection(signUp(deps, { body: bodyOf({ email: 42, name: ['Alice'], password: null }) }));
      expect(error.issues).toEqual([
        { path: 'email', message: 'must be a string' },
        { path: 'name', message: 'must be a string' },
        { path: 'password', message: 'must be a string' },
      ]);
    });

    describe('name length', () => {
      it.each([1, 100])('accepts %i characters', async (length) => {
        const { deps } = setup();
        const session = await signUp(deps, { body: bodyOf(validInput({ name: 'n'.repeat(length) })) });
        expect(session.user.name).toHaveLength(length);
      });

      it.each([
        [0, 'must not be empty'],
        [101, 'must be at most 100 characters'],
      ])('refuses %i characters', async (length, message) => {
        const { deps } = setup();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ name: 'n'.repeat(length) })) }));
        expect(error.issues).toEqual([{ path: 'name', message }]);
      });

      it('counts UTF-16 code units: 50 emoji (100 units) pass, 50 emoji and a letter fail', async () => {
        const { deps } = setup();
        await expect(signUp(deps, { body: bodyOf(validInput({ name: '🎉'.repeat(50) })) })).resolves.toBeDefined();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ email: 'b@example.com', name: `${'🎉'.repeat(50)}a` })) }));
        expect(error.issues).toEqual([{ path: 'name', message: 'must be at most 100 characters' }]);
      });
    });

    describe('password length', () => {
      it.each([8, 72])('accepts %i ASCII characters', async (length) => {
        const { deps, users } = setup();
        const password = 'p'.repeat(length);
        await signUp(deps, { body: bodyOf(validInput({ password })) });
        expect((await users.findByEmail('alice@example.com'))?.passwordHash).toBe(`fake-hash:${password}`);
      });

      it('refuses 7 characters', async () => {
        const { deps } = setup();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ password: 'p'.repeat(7) })) }));
        expect(error.issues).toEqual([{ path: 'password', message: 'must be at least 8 characters' }]);
      });

      it('refuses 73 characters', async () => {
        const { deps } = setup();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ password: 'p'.repeat(73) })) }));
        expect(error.code).toBe('ValidationFailed');
        expect(error.issues?.map((i) => i.path)).toContain('password');
        expect(error.issues).toContainEqual({ path: 'password', message: 'must be at most 72 characters' });
        expect(error.issues?.every((i) => i.path === 'password')).toBe(true);
      });

      it('accepts 36 "é" (36 characters, 72 UTF-8 bytes)', async () => {
        const { deps, users } = setup();
        const password = 'é'.repeat(36);
        expect(new TextEncoder().encode(password)).toHaveLength(72);
        await signUp(deps, { body: bodyOf(validInput({ password })) });
        expect((await users.findByEmail('alice@example.com'))?.passwordHash).toBe(`fake-hash:${password}`);
      });

      it('refuses 37 "é" (37 characters, 74 UTF-8 bytes) on the byte limit alone', async () => {
        const { deps } = setup();
        const password = 'é'.repeat(37);
        expect(new TextEncoder().encode(password)).toHaveLength(74);
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ password })) }));
        expect(error.issues).toEqual([{ path: 'password', message: 'must be at most 72 bytes in UTF-8' }]);
      });

      it('refuses 19 emoji (38 UTF-16 units, 76 UTF-8 bytes) on the byte limit alone', async () => {
        const { deps } = setup();
        const password = '🔑'.repeat(19);
        expect(password).toHaveLength(38);
        expect(new TextEncoder().encode(password)).toHaveLength(76);
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ password })) }));
        expect(error.issues).toEqual([{ path: 'password', message: 'must be at most 72 bytes in UTF-8' }]);
      });

      it('accepts 18 emoji (72 UTF-8 bytes)', async () => {
        const { deps } = setup();
        await expect(signUp(deps, { body: bodyOf(validInput({ password: '🔑'.repeat(18) })) })).resolves.toBeDefined();
      });

      it('takes the password exactly as sent (surrounding spaces included)', async () => {
        const { deps, users } = setup();
        await signUp(deps, { body: bodyOf(validInput({ password: '  spaced out  ' })) });
        expect((await users.findByEmail('alice@example.com'))?.passwordHash).toBe('fake-hash:  spaced out  ');
      });
    });

    describe('e-mail format', () => {
      it.each([
        'plainaddress',
        'alice@',
        '@example.com',
        'alice@example',
        'alice example@example.com',
        'alice@exa mple.com',
        'alice..smith@example.com',
        'alice@example..com',
        'alice@@example.com',
        'alice@-example.com',
        'alice@example.c',
      ])('refuses %j', async (email) => {
        const { deps } = setup();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ email })) }));
        expect(error.issues).toEqual([{ path: 'email', message: 'must be a valid e-mail address' }]);
      });

      it.each(['', '   ', '\t\n'])('refuses an e-mail that is empty once trimmed (%j)', async (email) => {
        const { deps } = setup();
        const error = await rejection(signUp(deps, { body: bodyOf(validInput({ email })) }));
        expect(error.issues?.length).toBeGreaterThan(0);
        expect(error.issues?.every((i) => i.path === 'email')).toBe(true);
        expect(error.issues).toContainEqual({ path: 'email', message: 'is required' });
      });

      it.each([42, null, true, ['alice@example.com'], { address: 'alice@example.com' }])(
        'refuses a non-string e-mail (%j)',
        async (email) => {
          const { deps } = setup();
          const error = await rejection(signUp(deps, { body: bodyOf(validInput({ email })) }));
          expect(error.issues).toEqual([{ path: 'email', message: 'must be a string' }]);
        },
      );

      it('accepts plus-addressing and subdomains', async () => {
        const { deps } = setup();
        const session = await signUp(deps, { body: bodyOf(validInput({ email: 'Alice+Blog@Mail.Example.CO.UK' })) });
        expect(session.user.email).toBe('alice+blog@mail.example.co.uk');
      });
    });

    it('never puts the submitted password in an issue or the error message', async () => {
      const { deps } = setup();
      const passwords = ['hunter2', 'Tr0ub4dor&3-'.repeat(7), 'é'.repeat(37), '🔑'.repeat(19)];
      for (const password of passwords) {
        const error = await rejection(signUp(deps, { body: bodyOf({ email: 'not-an-email', name: '', password }) }));
        expect(error.issues?.some((i) => i.path === 'password')).toBe(true);
        const everything = `${error.message} ${String(error)} ${JSON.stringify(error)} ${JSON.stringify(error.issues)}`;
        expect(everything).not.toContain(password);
        expect(everything).not.toContain(password.slice(0, 7));
      }
    });
  });

  describe('with mail on', () => {
    it('accepts exactly one message: a verification link to the new address, for the new account', async () => {
      const deps = mailDeps(T0);
      const addSpy = vi.spyOn(deps.outbox, 'add');
      const { user } = await signUp(deps, { body: bodyOf({ ...ALICE, email: ' Alice@Example.COM ' }) });
      expect(addSpy.mock.calls).toStrictEqual([
        [{ kind: 'email-verification', to: ALICE.email, userId: user.id, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), requestedAt: T0 }],
      ]);
      expect((await deps.users.findById(user.id))?.emailVerified).toBe(false);
    });

    it('accepts none for a signup that fails', async () => {
      const deps = mailDeps(T0);
      await signUp(deps, { body: bodyOf(ALICE) });
      const addSpy = vi.spyOn(deps.outbox, 'add');
      expect((await rejection(signUp(deps, { body: bodyOf(ALICE) }))).code).toBe('EmailAlreadyInUse');
      expect((await rejection(signUp(deps, { body: bodyOf({}) }))).code).toBe('ValidationFailed');
      expect(addSpy).not.toHaveBeenCalled();
    });
  });
});

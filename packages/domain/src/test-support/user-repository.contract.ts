import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRepository } from '../accounts/ports.js';
import type { NewUser } from '../accounts/user.js';
import { isDomainError } from '../shared/errors.js';
import { idsThatNameNothing } from './ids.js';

function newUser(overrides: Partial<NewUser> = {}): NewUser {
  return {
    email: 'alice@example.com',
    name: 'Alice',
    passwordHash: '$2b$12$abcdefghijklmnopqrstuu5Z7b7nU6ZqGQw0b0p8k0nqzJ1m5m7a',
    createdAt: 1_767_225_600_000,
    updatedAt: 1_767_225_600_000,
    ...overrides,
  };
}

/**
 * The behaviour every `UserRepository` must have. `makeRepository` is called before each
 * test and must return a repository over an empty store.
 */
export function describeUserRepositoryContract(
  adapterName: string,
  makeRepository: () => UserRepository | Promise<UserRepository>,
): void {
  describe(`UserRepository contract: ${adapterName}`, () => {
    let users: UserRepository;
    beforeEach(async () => {
      users = await makeRepository();
    });

    it('stores a user and assigns a non-empty string id', async () => {
      const user = await users.insert(newUser());
      expect(user).toEqual({ ...newUser(), id: expect.any(String) });
      expect(user.id.length).toBeGreaterThan(0);
    });

    it('finds a stored user by id and by e-mail, field for field', async () => {
      const user = await users.insert(newUser());
      expect(await users.findById(user.id)).toEqual(user);
      expect(await users.findByEmail('alice@example.com')).toEqual(user);
    });

    it('gives distinct ids to distinct users', async () => {
      const a = await users.insert(newUser({ email: 'a@example.com' }));
      const b = await users.insert(newUser({ email: 'b@example.com' }));
      expect(a.id).not.toBe(b.id);
    });

    it('answers null for an e-mail nobody has', async () => {
      await users.insert(newUser());
      expect(await users.findByEmail('bob@example.com')).toBeNull();
    });

    it('answers null for ids that name no user, including malformed ones', async () => {
      await users.insert(newUser());
      for (const id of idsThatNameNothing) expect(await users.findById(id)).toBeNull();
    });

    it('refuses a second user with the same e-mail with EmailAlreadyInUse and keeps the first', async () => {
      const first = await users.insert(newUser());
      const error = await users.insert(newUser({ name: 'Mallory' })).catch((e: unknown) => e);
      expect(isDomainError(error, 'EmailAlreadyInUse')).toBe(true);
      expect(await users.findByEmail('alice@example.com')).toEqual(first);
    });

    it('lets exactly one of many concurrent inserts with one e-mail win', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => users.insert(newUser({ name: `User ${i}` }))),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      for (const r of lost) expect(isDomainError(r.reason, 'EmailAlreadyInUse')).toBe(true);
    });
  });
}

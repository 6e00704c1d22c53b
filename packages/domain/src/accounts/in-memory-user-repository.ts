import { DomainError } from '../shared/errors.js';
import { sequentialIds } from '../shared/sequential-ids.js';
import type { UserRepository } from './ports.js';
import type { NewUser, User } from './user.js';

/**
 * Users in process memory. The e-mail check and the write happen in one synchronous step,
 * so concurrent inserts behave like a unique index: exactly one wins.
 */
export function createInMemoryUserRepository(): UserRepository {
  const byId = new Map<string, User>();
  const idByEmail = new Map<string, string>();
  const nextId = sequentialIds();

  return {
    async insert(newUser: NewUser) {
      if (idByEmail.has(newUser.email)) throw new DomainError('EmailAlreadyInUse');
      const user: User = Object.freeze({
        id: nextId(),
        email: newUser.email,
        name: newUser.name,
        passwordHash: newUser.passwordHash,
        createdAt: newUser.createdAt,
        updatedAt: newUser.updatedAt,
      });
      byId.set(user.id, user);
      idByEmail.set(user.email, user.id);
      return user;
    },
    async findByEmail(email) {
      const id = idByEmail.get(email);
      return id === undefined ? null : (byId.get(id) ?? null);
    },
    async findById(id) {
      return byId.get(id) ?? null;
    },
  };
}

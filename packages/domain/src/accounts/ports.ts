import type { NewUser, User } from './user.js';

/** Where users live. Implementations enforce e-mail uniqueness at insert time, like a unique index. */
export interface UserRepository {
  /** Stores a new user; throws `DomainError('EmailAlreadyInUse')` when the e-mail is taken. */
  insert(user: NewUser): Promise<User>;
  /** The user with this (already normalised) e-mail, or null. */
  findByEmail(email: string): Promise<User | null>;
  /** The user with this id, or null for any id that names no user (including malformed ones). */
  findById(id: string): Promise<User | null>;
}

/** One-way password hashing at the spec's work factor. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, passwordHash: string): Promise<boolean>;
  /**
   * A hash of the same cost that no password matches: login verifies against it when the
   * e-mail is unknown, so an unknown e-mail costs the same time as a wrong password.
   */
  readonly dummyHash: string;
}

/** Issues and checks the signed access tokens. */
export interface TokenService {
  /** A token whose `sub` is `userId`, valid for the spec's lifetime. */
  issue(userId: string): Promise<string>;
  /** The `sub` of a valid token, or null for any token that fails verification. */
  verify(token: string): Promise<string | null>;
}

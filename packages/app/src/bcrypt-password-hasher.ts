import type { PasswordHasher } from '@inkwell/domain';
import { compare, hash } from 'bcryptjs';

/** The spec's work factor. */
export const BCRYPT_COST = 12;

/**
 * A cost-12 bcrypt hash of 32 random bytes nobody kept: no password matches it, and checking
 * one against it costs exactly what checking a real hash does.
 */
const DUMMY_HASH = '$2b$12$EQQSIUmay0gbW6RkVsJzJ.GxXEMCV9BzP55CZA9DWIbo1qlwP5Elm';

/** bcryptjs behind the `PasswordHasher` port (async API, so the event loop gets turns between rounds). */
export function createBcryptPasswordHasher(cost = BCRYPT_COST): PasswordHasher {
  return {
    dummyHash: DUMMY_HASH,
    hash: (password) => hash(password, cost),
    verify: (password, passwordHash) => compare(password, passwordHash),
  };
}

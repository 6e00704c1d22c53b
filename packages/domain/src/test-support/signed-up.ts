import { createInMemoryUserRepository } from '../accounts/in-memory-user-repository.js';
import { signUp } from '../accounts/sign-up.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from './fakes.js';

/** Alice signed up on a fresh in-memory user store with fake tokens: the store, the token service, her session, and the deps of `currentUser`. */
export async function aliceSignedUp() {
  const users = createInMemoryUserRepository();
  const tokens = fakeTokenService();
  const session = await signUp(
    { users, tokens, hasher: fakePasswordHasher(), clock: manualClock() },
    { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery' },
  );
  return { users, tokens, session, deps: { users, tokens } };
}

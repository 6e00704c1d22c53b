import { createInMemoryUserRepository } from '../accounts/in-memory-user-repository.js';
import { signUp } from '../accounts/sign-up.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from './fakes.js';

/** Alice's signup: the e-mail, name and password every domain test signs up with. */
export const ALICE = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery' } as const;

/**
 * Alice signed up on a fresh in-memory user store with fake tokens (which expire by the manual
 * clock) and a fake hasher: the store, the fakes, her signup's answer, and the deps every account
 * use case takes.
 */
export async function aliceSignedUp() {
  const users = createInMemoryUserRepository();
  const clock = manualClock();
  const tokens = fakeTokenService(clock);
  const hasher = fakePasswordHasher();
  const deps = { users, tokens, clock, hasher };
  const signedIn = await signUp(deps, ALICE);
  return { users, tokens, clock, hasher, signedIn, deps };
}

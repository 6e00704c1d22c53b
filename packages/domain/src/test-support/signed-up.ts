import { bearer, type Credentials } from '../accounts/credentials.js';
import { createInMemoryUserRepository } from '../accounts/in-memory-user-repository.js';
import { signUp } from '../accounts/sign-up.js';
import { createInMemoryPostRepository } from '../posts/in-memory-post-repository.js';
import { openPostAccess } from '../posts/post-access.js';
import type { ReadBody } from '../shared/validation.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from './fakes.js';

/** Alice's signup: the e-mail, name and password every domain test signs up with. */
export const ALICE = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery' } as const;

/**
 * Every port the use cases take, in this process: empty in-memory stores of users and posts, a
 * manual clock (starting at `start`), fake tokens that expire by it, a fake hasher, and the open
 * posts policy (a test of another spreads its own over it).
 */
export function inMemoryDeps(start?: number) {
  const clock = manualClock(start);
  return {
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    clock,
    tokens: fakeTokenService(clock),
    hasher: fakePasswordHasher(),
    postAccess: openPostAccess,
  };
}

/** A request body that is `value`, read as a client's would be: once, when the use case asks. */
export function bodyOf(value: unknown): ReadBody {
  return async () => value;
}

/** Someone signed up on `deps` under `email`: their user id, and the credentials their token presents. */
export async function signedUpAs(deps: ReturnType<typeof inMemoryDeps>, email: string): Promise<{ userId: string; credentials: Credentials }> {
  const { token, user } = await signUp(deps, { body: bodyOf({ ...ALICE, email }) });
  return { userId: user.id, credentials: bearer(token) };
}

/**
 * Alice signed up on fresh `inMemoryDeps`: the stores, the fakes, her signup's answer, the
 * credentials her token presents, and the deps every account use case takes.
 */
export async function aliceSignedUp() {
  const deps = inMemoryDeps();
  const signedIn = await signUp(deps, { body: bodyOf(ALICE) });
  return { ...deps, signedIn, credentials: bearer(signedIn.token), deps };
}

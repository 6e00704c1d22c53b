import { bearer, type Credentials } from '../accounts/credentials.js';
import { createInMemoryUserRepository } from '../accounts/in-memory-user-repository.js';
import { signUp } from '../accounts/sign-up.js';
import { createInMemoryIdempotencyStore } from '../posts/in-memory-idempotency-store.js';
import { createInMemoryPostRepository } from '../posts/in-memory-post-repository.js';
import { createInMemoryOutbox } from '../mail/in-memory-outbox.js';
import { openPostAccess } from '../posts/post-access.js';
import type { ReadBody } from '../shared/validation.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from './fakes.js';
import type { MessageKind } from '../mail/message.js';
import type { Mail } from '../mail/ports.js';
import { deliverDueMessages, recordingMailSender } from './mail.js';

/** Alice's signup: the e-mail, name and password every domain test signs up with. */
export const ALICE = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery' } as const;

/**
 * Every port the use cases take, in this process: empty in-memory stores of users, posts and
 * idempotency keys, a manual clock (starting at `start`), fake tokens that expire by it, a fake
 * hasher, and the open posts policy (a test of another spreads its own over it).
 */
export function inMemoryDeps(start?: number) {
  const clock = manualClock(start);
  return {
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    idempotencyKeys: createInMemoryIdempotencyStore(),
    clock,
    tokens: fakeTokenService(clock),
    hasher: fakePasswordHasher(),
    postAccess: openPostAccess,
  };
}

/** `inMemoryDeps` with mail on: an in-memory outbox, and a mail sender that records what it is handed. */
export function mailDeps(start?: number) {
  return { ...inMemoryDeps(start), outbox: createInMemoryOutbox(), mailer: recordingMailSender() };
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

/**
 * Alice signed up on fresh `mailDeps`, her signup's verification mail delivered, and the clock a
 * millisecond on; with `deliver()` (one delivery round: the mails it sent) and `tokenOf(kind)`
 * (the token of the last mail of that kind sent so far).
 */
export async function aliceWithMail() {
  const deps = mailDeps();
  const signedIn = await signUp(deps, { body: bodyOf(ALICE) });
  const deliver = async (): Promise<Mail[]> => {
    const before = deps.mailer.sent.length;
    await deliverDueMessages(deps);
    return deps.mailer.sent.slice(before);
  };
  await deliver();
  deps.clock.advance(1);
  const tokenOf = (kind: MessageKind): string => {
    const token = deps.mailer.sent.filter((mail) => mail.kind === kind).at(-1)?.token;
    if (token === undefined) throw new Error(`aliceWithMail: no ${kind} mail was sent`);
    return token;
  };
  return { ...deps, deps, signedIn, credentials: bearer(signedIn.token), deliver, tokenOf };
}

import { bearer } from './credentials.js';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { AccountSchema, PublicSessionSchema, PublicUserSchema, SignedInSchema } from './response-schemas.js';
import type { PublicSession } from './session.js';
import { aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { listSessions } from './list-sessions.js';
import { signUp } from './sign-up.js';
import type { Account, PublicUser, SignedIn } from './user.js';
import { currentAccount } from './current-account.js';

describe('account response schemas', () => {
  it('describe the same shapes as the PublicUser, Account, SignedIn and PublicSession types', () => {
    expectTypeOf<v.InferOutput<typeof PublicUserSchema>>().toExtend<PublicUser>();
    expectTypeOf<PublicUser>().toExtend<v.InferOutput<typeof PublicUserSchema>>();
    expectTypeOf<v.InferOutput<typeof AccountSchema>>().toExtend<Account>();
    expectTypeOf<Account>().toExtend<v.InferOutput<typeof AccountSchema>>();
    expectTypeOf<v.InferOutput<typeof SignedInSchema>>().toExtend<SignedIn>();
    expectTypeOf<SignedIn>().toExtend<v.InferOutput<typeof SignedInSchema>>();
    expectTypeOf<v.InferOutput<typeof PublicSessionSchema>>().toExtend<PublicSession>();
    expectTypeOf<PublicSession>().toExtend<v.InferOutput<typeof PublicSessionSchema>>();
  });

  it('accept what signup returns, and refuse a user that carries its hash', async () => {
    const deps = {
      users: createInMemoryUserRepository(),
      hasher: fakePasswordHasher(),
      tokens: fakeTokenService(),
      clock: manualClock(),
    };
    const session = await signUp(deps, { body: bodyOf({ email: 'alice@example.com', name: 'Alice', password: 'correct horse' }) });
    expect(v.parse(SignedInSchema, session)).toStrictEqual({ token: session.token, user: { ...session.user } });
    expect(v.safeParse(PublicUserSchema, { ...session.user, passwordHash: 'fake-hash:x' }).success).toBe(false);
  });

  it('take the user object as exactly { id, email, name }: one more key, the account\'s state included, is refused', async () => {
    const { signedIn } = await aliceSignedUp();
    expect(v.parse(PublicUserSchema, signedIn.user)).toStrictEqual(signedIn.user);
    for (const extra of [{ emailVerified: false }, { createdAt: 0 }, { updatedAt: 0 }, { role: 'admin' }]) {
      expect(v.safeParse(PublicUserSchema, { ...signedIn.user, ...extra }).success).toBe(false);
    }
  });

  it('accept what currentAccount returns, and refuse an account that carries its hash or lacks a field', async () => {
    const { deps, credentials } = await aliceSignedUp();
    const account = await currentAccount(deps, { credentials });
    expect(v.parse(AccountSchema, account)).toStrictEqual(account);
    expect(v.safeParse(AccountSchema, { ...account, passwordHash: 'fake-hash:x' }).success).toBe(false);
    expect(v.safeParse(AccountSchema, { ...account, createdAt: 1.5 }).success).toBe(false);
    expect(v.safeParse(AccountSchema, { id: account.id, email: account.email, name: account.name }).success).toBe(false);
  });

  it('accept what listSessions returns, and refuse a session that carries a token', async () => {
    const { deps, signedIn } = await aliceSignedUp();
    const [listed] = await listSessions(deps, { credentials: bearer(signedIn.token) });
    expect(v.parse(PublicSessionSchema, listed)).toStrictEqual(listed);
    expect(v.safeParse(PublicSessionSchema, { ...listed, token: signedIn.token }).success).toBe(false);
  });
});

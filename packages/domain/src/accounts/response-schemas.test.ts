import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { PublicUserSchema, SessionSchema } from './response-schemas.js';
import { signUp } from './sign-up.js';
import type { PublicUser, Session } from './user.js';

describe('account response schemas', () => {
  it('describe the same shapes as the PublicUser and Session types', () => {
    expectTypeOf<v.InferOutput<typeof PublicUserSchema>>().toExtend<PublicUser>();
    expectTypeOf<PublicUser>().toExtend<v.InferOutput<typeof PublicUserSchema>>();
    expectTypeOf<v.InferOutput<typeof SessionSchema>>().toExtend<Session>();
    expectTypeOf<Session>().toExtend<v.InferOutput<typeof SessionSchema>>();
  });

  it('accept what signup returns, and refuse a user that carries its hash', async () => {
    const deps = {
      users: createInMemoryUserRepository(),
      hasher: fakePasswordHasher(),
      tokens: fakeTokenService(),
      clock: manualClock(),
    };
    const session = await signUp(deps, { email: 'alice@example.com', name: 'Alice', password: 'correct horse' });
    expect(v.parse(SessionSchema, session)).toStrictEqual({ token: session.token, user: { ...session.user } });
    expect(v.safeParse(PublicUserSchema, { ...session.user, passwordHash: 'fake-hash:x' }).success).toBe(false);
  });
});

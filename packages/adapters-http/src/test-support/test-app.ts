import { createInMemoryPostRepository, createInMemoryUserRepository, openPostAccess } from '@inkwell/domain';
import { fakePasswordHasher, fakeTokenService, manualClock } from '@inkwell/domain/testing';
import { createHttpApp } from '../http-app.js';
import type { HttpDeps } from '../http-deps.js';

const quiet = () => undefined;

/** The HTTP app over empty in-memory stores, fake hashing and tokens, a manual clock, the open posts policy and a silent logger. */
export function testHttpApp(overrides: Partial<HttpDeps> = {}) {
  return createHttpApp({
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    hasher: fakePasswordHasher(),
    tokens: fakeTokenService(),
    clock: manualClock(),
    postAccess: openPostAccess,
    logger: { info: quiet, warn: quiet, error: quiet },
    storeReachable: () => true,
    ...overrides,
  });
}

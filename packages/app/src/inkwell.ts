import { createHttpApp, type Logger } from '@inkwell/adapters-http';
import type { Clock, PasswordHasher } from '@inkwell/domain';
import { createBcryptPasswordHasher } from './bcrypt-password-hasher.js';
import type { Config } from './config.js';
import { createJoseTokenService } from './jose-token-service.js';
import { openStore, type Store } from './store.js';
import { systemClock } from './system-clock.js';

/** A wired inkwell: the HTTP app over its store, and how to release the store. */
export interface Inkwell {
  readonly app: ReturnType<typeof createHttpApp>;
  readonly store: Store;
  close(): Promise<void>;
}

/** Adapters a test may substitute; production passes none. */
export interface InkwellOverrides {
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  readonly store?: Store;
}

/** The composition root: builds every adapter from the configuration and wires them into the app. */
export async function createInkwell(config: Config, logger: Logger, overrides: InkwellOverrides = {}): Promise<Inkwell> {
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? (await openStore(config));
  const app = createHttpApp({
    users: store.users,
    posts: store.posts,
    hasher: overrides.hasher ?? createBcryptPasswordHasher(),
    tokens: await createJoseTokenService(config.jwtSecret, clock),
    clock,
    logger,
    storeIsUp: () => store.ping(),
  });
  return { app, store, close: () => store.close() };
}

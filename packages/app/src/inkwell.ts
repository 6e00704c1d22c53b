import { createHttpApp, type Logger } from '@inkwell/adapters-http';
import { postAccessPolicy, type Clock, type PasswordHasher } from '@inkwell/domain';
import { createAbuseLimits } from './abuse-limits.js';
import { createBcryptPasswordHasher, type PooledPasswordHasher } from './adapters/bcrypt-password-hasher.js';
import type { Config } from './config.js';
import { plainLineLogger } from './logger.js';
import { createJoseTokenService } from './adapters/jose-token-service.js';
import { openStore, type Store } from './store.js';
import { systemClock } from './adapters/system-clock.js';

/** A wired inkwell: the HTTP app over its store, and how to release the store and the hashing threads. */
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
  const tokens = await createJoseTokenService(config.jwtSecret, clock);
  // The hashing threads start here, with the server; a substituted hasher belongs to whoever passed it.
  let pool: PooledPasswordHasher | undefined;
  const hasher =
    overrides.hasher ?? (pool = createBcryptPasswordHasher({ threads: config.hashWorkers, queueMax: config.hashQueueMax }));
  const app = createHttpApp({
    users: store.users,
    posts: store.posts,
    hasher,
    tokens,
    clock,
    logger,
    accessLogger: plainLineLogger(logger),
    storeIsUp: () => store.ping(),
    ...createAbuseLimits(config.limits, store, clock),
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    apiDocs: config.apiDocs,
    postAccess: postAccessPolicy(config.postsAccess),
  });
  return { app, store, close: () => Promise.all([pool?.close(), store.close()]).then(() => undefined) };
}

import { createHttpApp, RequestsInFlight, type Logger } from '@inkwell/adapters-http';
import { DEFAULT_SAFE_WRITE_RULES, postAccessPolicy, type Clock, type PasswordHasher, type PostAccessMode } from '@inkwell/domain';
import { createAbuseLimits, createPostWriteLimits } from './abuse-limits.js';
import { createBcryptPasswordHasher, type PooledPasswordHasher } from './adapters/bcrypt-password-hasher.js';
import type { Config } from './config.js';
import { plainLineLogger } from './logger.js';
import { createJoseTokenService } from './adapters/jose-token-service.js';
import { startMail, type MailOverrides, type RunningMail } from './mail.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';
import { watchStore, type StoreHealth } from './store-health.js';
import { systemClock } from './adapters/system-clock.js';

/**
 * A wired inkwell: the HTTP app over its store, mail when it is on (the loop delivering from this
 * process), and how to release them all.
 */
export interface Inkwell {
  readonly app: ReturnType<typeof createHttpApp>;
  readonly store: Store;
  /** Whether the store can be reached, as this process last saw it (readiness answers it). */
  readonly storeHealth: StoreHealth;
  /** The requests under way, which a stop names one line each when it cuts them. */
  readonly requestsInFlight: RequestsInFlight;
  /** Marks the process as stopping: from now on `GET /health` answers 503 `stopping`, so load balancers take it out. */
  markStopping(): void;
  /** Mail when it is on (`MAIL_URL`, or `log:` outside production); null when it is off. */
  readonly mail: RunningMail | null;
  /** Stops the delivery loop (its sends in flight finish, bounded), then releases the hashing threads and the store. */
  close(): Promise<void>;
}

/** Adapters a test may substitute; production passes none. */
export interface InkwellOverrides extends MailOverrides {
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  readonly store?: Store;
}

/**
 * The start-up line of a process whose posts access mode differs from the one its database was
 * last served with: a warning, not a refusal, since switching on purpose must stay possible.
 */
export function postsAccessChanged(now: PostAccessMode, before: PostAccessMode): string {
  return (
    `POSTS_ACCESS=${now}, but this database was last served with POSTS_ACCESS=${before}. Every process on one database ` +
    'must use the same mode: while any process runs in open mode, anyone can read and change drafts and write posts ' +
    'under any author (docs/scale-out.md). Ignore this line if the mode was switched on purpose.'
  );
}

/** How often each process drops the sessions that expired from storage (every account's, in one update). */
const EXPIRED_SESSIONS_SWEEP_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The composition root: builds every adapter from the configuration and wires them into the app,
 * delivers mail from the outbox while it runs when mail is on, and sweeps expired sessions out of
 * the store (writes of an account drop its own; the sweep reaches accounts nobody writes).
 */
export async function createInkwell(config: Config, logger: Logger, overrides: InkwellOverrides = {}): Promise<Inkwell> {
  const clock = overrides.clock ?? systemClock;
  const store = overrides.store ?? (await openStore(config, logger));
  const warnOfPostsAccess = (previous: PostAccessMode | null) => {
    if (previous !== null && previous !== config.postsAccess) logger.warn({ postsAccess: config.postsAccess, previousPostsAccess: previous }, postsAccessChanged(config.postsAccess, previous));
  };
  // Known now, or once a database that could not be reached at start is set up.
  if (store.reachedAtStart) warnOfPostsAccess(await store.previousPostsAccess);
  else void store.previousPostsAccess.then(warnOfPostsAccess);
  const storeHealth = watchStore(store, logger);
  const requestsInFlight = new RequestsInFlight();
  const tokens = await createJoseTokenService(config.jwtSecret, clock);
  // The hashing threads start here, with the server; a substituted hasher belongs to whoever passed it.
  let pool: PooledPasswordHasher | undefined;
  const hasher =
    overrides.hasher ?? (pool = createBcryptPasswordHasher({ threads: config.hashWorkers, queueMax: config.hashQueueMax, cost: config.bcryptCost }));
  let stopping = false;
  const limits = createAbuseLimits(config, store, clock);
  const mail = config.mail === null ? null : startMail({ ...config, mail: config.mail }, store, limits.mailLimits, clock, logger, overrides);
  const app = createHttpApp({
    users: store.users,
    posts: store.posts,
    idempotencyKeys: store.idempotencyKeys,
    hasher,
    tokens,
    clock,
    logger,
    accessLogger: plainLineLogger(logger),
    storeReachable: storeHealth.reachable,
    storeUnreachable: storeHealth.requestFailed,
    requestsInFlight,
    stopping: () => stopping,
    ...limits,
    postWriteLimits: createPostWriteLimits(config.postWrites, store, clock),
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    apiDocs: config.apiDocs,
    postAccess: postAccessPolicy(config.postsAccess),
    safeWriteRules: {
      ...DEFAULT_SAFE_WRITE_RULES,
      requirePrecondition: config.safeWrites.requirePrecondition,
      idempotencyTtlMs: config.safeWrites.idempotencyTtlSeconds * 1000,
    },
    sessionRules: { maxPerUser: config.sessions.maxPerUser, maxAgeMs: config.sessions.maxAgeDays * DAY_MS },
    ...(mail === null ? {} : { outbox: mail.outbox, mailRules: mail.mailRules }),
  });
  const sweep = setInterval(() => {
    store.users.removeExpiredSessions(clock.now()).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not remove expired sessions; the next sweep tries again');
    });
  }, EXPIRED_SESSIONS_SWEEP_MS).unref();
  const close = async () => {
    clearInterval(sweep);
    storeHealth.stop();
    // The loop's sends in flight still write to the store: it stops first.
    await mail?.close();
    await Promise.all([pool?.close(), store.close()]);
  };
  const markStopping = () => {
    stopping = true;
    // Draining: the mail this process claimed goes on, and other processes take the rest.
    mail?.loop.stopClaiming();
  };
  return { app, store, storeHealth, requestsInFlight, mail, markStopping, close };
}

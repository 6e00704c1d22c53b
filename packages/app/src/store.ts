import {
  createInMemoryAttemptLimiter,
  createInMemoryIdempotencyStore,
  createInMemoryOutbox,
  createInMemoryPostRepository,
  createInMemoryUserRepository,
  type AttemptLimiter,
  type Clock,
  type IdempotencyStore,
  type Outbox,
  type PostAccessMode,
  type PostRepository,
  type UserRepository,
} from '@inkwell/domain';

/** One abuse rule: its name (which keeps its counts apart from the other rules'), limit and window. */
export interface LimitRule {
  readonly rule: string;
  readonly max: number;
  readonly windowSeconds: number;
}

/** The repositories and limits of one store, with what start-up, health and shutdown need of it. */
export interface Store {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  /** Where idempotency keys are kept: in this process for the memory store, in the database for MongoDB, where every process sees every key. */
  readonly idempotencyKeys: IdempotencyStore;
  /** Where mail waits to be delivered: in this process for the memory store, in the database for MongoDB, where every process delivers it. */
  readonly outbox: Outbox;
  /**
   * A limiter for one rule, counting where the store keeps its data: in this process for the
   * memory store, in the database for MongoDB, so that every process on it counts together.
   */
  attemptLimiter(rule: LimitRule, clock: Clock): AttemptLimiter;
  /** How the listening line names it: `memory` or `mongodb (DB_NAME)`. */
  readonly label: string;
  /**
   * The posts access mode (`POSTS_ACCESS`) its data was served with before this process opened
   * it, once the store is set up; null when nothing says (a new memory store, a database no
   * process has served yet).
   */
  readonly previousPostsAccess: Promise<PostAccessMode | null>;
  /**
   * Whether the store was set up and answered when it was opened. False for a MongoDB that could
   * not be reached at start: every repository and limiter answers `StoreUnavailable` at once
   * until a `ping` has set it up (connected, indexed).
   */
  readonly reachedAtStart: boolean;
  /**
   * Whether the store answers now (for a store not set up yet: whether it could be set up now);
   * cheap enough for a check every second.
   */
  ping(): Promise<boolean>;
  /** How long a request waits for the store's answer before it fails: a ping unanswered that long means the store cannot be reached. */
  readonly answerTimeoutMs: number;
  close(): Promise<void>;
}

/** A new in-memory store: users, posts, idempotency keys, limits and mail waiting in this process, lost when it stops. */
export function memoryStore(): Store {
  return {
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    idempotencyKeys: createInMemoryIdempotencyStore(),
    outbox: createInMemoryOutbox(),
    attemptLimiter: ({ max, windowSeconds }, clock) => createInMemoryAttemptLimiter({ max, windowSeconds, clock }),
    label: 'memory',
    previousPostsAccess: Promise.resolve(null),
    reachedAtStart: true,
    ping: async () => true,
    // In the process: a request never waits for it.
    answerTimeoutMs: 0,
    close: async () => undefined,
  };
}

import type { Logger } from '@inkwell/adapters-http';
import type { MongoConnection } from '@inkwell/adapters-mongo';
import { DomainError, type PostAccessMode } from '@inkwell/domain';
import { createHmac } from 'node:crypto';
import { MEMORY_DB_URL, type Config } from './config.js';
import { redactUrl } from './redact-url-passwords.js';
import { memoryStore, type Store } from './store.js';

/**
 * The store cannot be used: a configuration error no retry can mend (a `DB_URL` the driver refuses,
 * credentials the database refuses, a database that cannot be set up). `message` is the one line
 * main prints, with the URL's password redacted.
 */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError';
}

/** What to do about a MongoDB start-up failure, for the line that reports it. */
const WAYS_FORWARD = 'Set DB_URL to a MongoDB this service can use (percent-encode @ : / in the user and password), or run `pnpm dev` to use the in-memory store.';

/**
 * Opens the store `DB_URL` selects: in-memory for `memory:`, otherwise MongoDB, set up (connected
 * and indexed). A MongoDB that cannot be reached at start (refused, no answer) is no reason to
 * stop: the store is returned unset (`reachedAtStart` false), with one warn line, its repositories
 * and limiters answering `StoreUnavailable` at once, and each `ping` tries to set it up again.
 * Anything else (a malformed URL, refused credentials) throws `StoreStartError` at once. `logger`
 * hears of that line, of a later set-up that fails for another reason, and of mail the MongoDB
 * outbox had to drop (its token sealed under another `JWT_SECRET`).
 */
export async function openStore(config: Config, logger?: Logger): Promise<Store> {
  if (config.dbUrl === MEMORY_DB_URL) return memoryStore();

  // Loaded only for MongoDB: the driver costs ~120 ms of start-up and ~20 MB of memory (BSON
  // allocates a 17 MB buffer on import) that the in-memory store has no use for.
  const { ensureIndexes, isStoreUnavailableError, openMongo, recordPostsAccess } = await import('@inkwell/adapters-mongo');
  const { mongoStore, outboxTokenKey } = await import('./mongo-store.js');
  const shownUrl = redactUrl(config.dbUrl);
  let connection: MongoConnection;
  try {
    connection = openMongo({ url: config.dbUrl, database: config.dbDatabase });
  } catch (error) {
    throw new StoreStartError(`DB_URL cannot be used: ${reasonOf(error)}. ${WAYS_FORWARD}`, { cause: error });
  }
  const open = connection;
  const setUp = async () => {
    await open.connect();
    await ensureIndexes(open.db);
    return recordPostsAccess(open.db, config.postsAccess, Date.now());
  };
  const outbox = {
    tokenKey: outboxTokenKey(config.jwtSecret),
    onUnreadable: (message: { id: string; kind: string }) =>
      logger?.error({ messageId: message.id, kind: message.kind }, 'mail: dropped, its link was sealed under another JWT_SECRET and cannot be opened'),
  };
  const store = { ...mongoStore(open.db, limitKeySecret(config.jwtSecret), null, outbox), close: () => open.close() };
  try {
    return { ...store, previousPostsAccess: Promise.resolve(await setUp()) };
  } catch (error) {
    if (!isStoreUnavailableError(error)) {
      await open.close();
      throw new StoreStartError(`cannot use MongoDB at ${shownUrl} (${reasonOf(error)}). ${WAYS_FORWARD}`, { cause: error });
    }
    logger?.warn(
      { reason: reasonOf(error) },
      `store: cannot reach MongoDB at ${shownUrl} (${reasonOf(error)}): serving, readiness and every request that needs the database answering 503, and trying again every second`,
    );
  }
  // Said once per reason, not at every attempt.
  let lastFailure: string | undefined;
  return setUpLater(store, async () => {
    try {
      return await setUp();
    } catch (error) {
      const reason = reasonOf(error);
      if (!isStoreUnavailableError(error) && reason !== lastFailure)
        logger?.error({ reason }, `store: cannot set up MongoDB at ${shownUrl} (${reason}); trying again every second`);
      lastFailure = reason;
      throw error;
    }
  });
}

/** A thrown value as a line shows it: the driver's class and message. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * `store`, not set up yet: every repository, limiter and outbox method answers `StoreUnavailable`
 * at once until a `ping` has run `setUp` to its end (one at a time); from then on the store is
 * `store` itself, behind a forwarding step.
 */
function setUpLater(store: Store, setUp: () => Promise<PostAccessMode | null>): Store {
  let ready = false;
  let settingUp: Promise<boolean> | undefined;
  let setUpDone: (previous: PostAccessMode | null) => void = () => undefined;
  const previousPostsAccess = new Promise<PostAccessMode | null>((resolve) => (setUpDone = resolve));
  const isReady = () => ready;
  return {
    ...store,
    users: gated(store.users, isReady),
    posts: gated(store.posts, isReady),
    outbox: gated(store.outbox, isReady),
    attemptLimiter: (rule, clock) => gated(store.attemptLimiter(rule, clock), isReady),
    previousPostsAccess,
    reachedAtStart: false,
    ping: () => {
      if (ready) return store.ping();
      return (settingUp ??= setUp().then(
        (previous) => {
          ready = true;
          setUpDone(previous);
          return true;
        },
        () => {
          settingUp = undefined;
          return false;
        },
      ));
    },
  };
}

/** `port`, whose methods answer `StoreUnavailable` at once while `isReady()` is false, and are its own after. */
function gated<T extends object>(port: T, isReady: () => boolean): T {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (!isReady()) return notSetUp;
      let method = bound.get(name);
      if (method === undefined) bound.set(name, (method = (value as (...args: unknown[]) => unknown).bind(target)));
      return method;
    },
  });
}

function notSetUp(): Promise<never> {
  return Promise.reject(new DomainError('StoreUnavailable'));
}

/**
 * The HMAC key under which the MongoDB limiter stores its keys (e-mails, addresses). Derived from
 * the signing secret, which every instance of one service already shares, under a label of its
 * own so the two uses never share a key.
 */
export function limitKeySecret(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('inkwell attempt-limit keys').digest();
}

import { DomainError } from '@inkwell/domain';
import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

// Driver errors that say "no database to talk to right now", not "this request is wrong".
// MongoNetworkError covers MongoNetworkTimeoutError and the pool-cleared errors, which extend it.
const UNAVAILABLE_ERROR_TYPES = [
  MongoServerSelectionError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoClientClosedError,
  MongoServerClosedError,
  MongoOperationTimeoutError,
] as const;

// Server answers from a node that is shutting down or has stopped being primary: it is reachable
// but cannot serve, which for a client is the same outage.
const UNAVAILABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

// The socket errors of a connection the database (or the network between) ended. The driver
// wraps most of them in MongoNetworkError, but not all: a command written to a socket whose
// other end has just closed rejects with Node's own EPIPE ("This socket has been ended by the
// other party"), unwrapped (mongodb 7.9, Connection.writeCommand waiting for 'drain').
const CONNECTION_LOST_CODES: ReadonlySet<string> = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED', 'ECONNREFUSED', 'ETIMEDOUT']);

/** True when a thrown value means the database is unreachable or cannot serve, so the caller should answer 503. */
export function isStoreUnavailableError(error: unknown): boolean {
  if (error instanceof Error && !(error instanceof MongoError)) {
    const { code } = error as NodeJS.ErrnoException;
    return typeof code === 'string' && CONNECTION_LOST_CODES.has(code);
  }
  if (!(error instanceof MongoError)) return false;
  if (UNAVAILABLE_ERROR_TYPES.some((type) => error instanceof type)) return true;
  // The pool's own "closed" error is not exported by the driver, so only its name identifies it.
  if (error.name === 'MongoPoolClosedError') return true;
  return typeof error.code === 'number' && UNAVAILABLE_SERVER_CODES.has(error.code);
}

/** True for MongoDB's duplicate key error (E11000): a unique index refused a write. */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/** Runs one repository operation, turning an unavailable database into `DomainError('StoreUnavailable')`; other errors pass unchanged. */
export async function callStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isStoreUnavailableError(error)) throw new DomainError('StoreUnavailable', undefined, { cause: error });
    throw error;
  }
}

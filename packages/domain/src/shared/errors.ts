/** One problem found by validation: the dotted field name (`""` for the whole input) and what is wrong. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Every failure a use case or a port can report. The set is closed: an adapter that answers
 * clients (the HTTP adapter) gives each code its one answer and its wording; the domain only says
 * what happened, with the facts that go with it.
 */
export const DOMAIN_ERROR_CODES = [
  /** The input broke its rules: `issues` says how. */
  'ValidationFailed',
  /** Another account has that e-mail. */
  'EmailAlreadyInUse',
  /** A login's e-mail is unknown or its password wrong (the two are not told apart). */
  'InvalidCredentials',
  /** The request presented no bearer token where one is needed. */
  'MissingAuthorization',
  /** The token fails verification, or its session ended or expired. */
  'InvalidToken',
  /** The token verifies, but the account it names is gone (or being deleted). */
  'UserNoLongerExists',
  /** No post has that id, or the caller may not see it. */
  'PostNotFound',
  /** No live session of the caller's account has that id. */
  'SessionNotFound',
  /** The current password given for a change is wrong. */
  'CurrentPasswordIncorrect',
  /** A new post names another user as its author. */
  'AuthorIdNotYours',
  /** The caller may see the post but not change or delete it. */
  'NotTheAuthor',
  /** A write was conditional on versions the post is not at: `version` is the one it is at. */
  'PreconditionFailed',
  /** A write had to be conditional (the rules require a version to write on) and was not. */
  'PreconditionRequired',
  /** An idempotency key came again with another request than the one it was first used for. */
  'IdempotencyKeyReused',
  /** An idempotency key came again while the request first sent with it still runs: `retryAfterSeconds` says when to try again. */
  'IdempotencyKeyInProgress',
  /** A mailed link's token is unknown, used, superseded, expired, or was sent to an address the account no longer has. */
  'InvalidLinkToken',
  /** The account's address is verified already: there is nothing to send a verification for. */
  'EmailAlreadyVerified',
  /** The use case is not offered under the deps it was given (`isOffered`). */
  'NotOffered',
  /** The store cannot be reached. */
  'StoreUnavailable',
  /** Past an abuse limit: `retryAfterSeconds` says when trying again can succeed. */
  'TooManyAttempts',
  /** A bounded resource (the password hashing queue) is full: `retryAfterSeconds` says when to try again. */
  'ServerBusy',
] as const;

/** One of `DOMAIN_ERROR_CODES`. */
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/** The facts a `DomainError` may carry besides its code and issues. */
export interface DomainErrorFacts {
  /** What caused it (a driver's error), as `Error.cause`. */
  readonly cause?: unknown;
  /** When trying again can succeed, in seconds. */
  readonly retryAfterSeconds?: number;
  /** The version the post is at (`PreconditionFailed`). */
  readonly version?: number;
  /** True when the failure is the answer kept for an idempotency key, given again. */
  readonly replayed?: boolean;
}

/**
 * A failure of the closed set, with its facts: `issues` is set, and never empty, exactly when the
 * code is `ValidationFailed`; `retryAfterSeconds` tells a refused caller when trying again can
 * succeed; `version` is the post's current version when a conditional write found another;
 * `replayed` says the failure is the kept answer of an idempotency key's first request. Its
 * `message` is the code: the words a client reads belong to the adapter that answers it.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly retryAfterSeconds?: number;
  /** The version the post is at, for `PreconditionFailed`. */
  readonly version?: number;
  /** True for the kept answer of an idempotency key's first request, given again. */
  readonly replayed?: boolean;

  constructor(
    readonly code: DomainErrorCode,
    readonly issues?: readonly ValidationIssue[],
    options?: DomainErrorFacts,
  ) {
    super(code, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options?.version !== undefined) this.version = options.version;
    if (options?.replayed !== undefined) this.replayed = options.replayed;
  }
}

/** Narrows an unknown thrown value to a DomainError, optionally of one code. */
export function isDomainError(error: unknown, code?: DomainErrorCode): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

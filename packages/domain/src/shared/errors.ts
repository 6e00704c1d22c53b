/** One problem found by validation: the dotted field name (`""` for the whole input) and what is wrong. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Every failure a use case or a port can report, with the message the spec gives it.
 * The set is closed: the HTTP adapter maps each code to exactly one status.
 */
export const domainErrorMessages = {
  ValidationFailed: 'Validation failed',
  EmailAlreadyInUse: 'Email already in use',
  InvalidCredentials: 'Invalid email or password',
  MissingAuthorization: 'Missing authorization header',
  InvalidToken: 'Invalid token',
  UserNoLongerExists: 'User no longer exists',
  PostNotFound: 'Post not found',
  SessionNotFound: 'Session not found',
  CurrentPasswordIncorrect: 'Current password is incorrect',
  AuthorIdNotYours: 'authorId must be your own user id',
  NotTheAuthor: 'Only the author can change this post',
  StoreUnavailable: 'Service unavailable',
  TooManyAttempts: 'Too many attempts, try again later',
  ServerBusy: 'Server busy, try again',
} as const;

export type DomainErrorCode = keyof typeof domainErrorMessages;

/**
 * A failure the spec names. `issues` is set, and never empty, exactly when the code is
 * `ValidationFailed`; `retryAfterSeconds` tells a refused client when trying again can succeed.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: DomainErrorCode,
    readonly issues?: readonly ValidationIssue[],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(domainErrorMessages[code], options);
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Narrows an unknown thrown value to a DomainError, optionally of one code. */
export function isDomainError(error: unknown, code?: DomainErrorCode): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

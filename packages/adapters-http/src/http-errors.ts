import { isDomainError, type DomainError, type DomainErrorCode } from '@inkwell/domain';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { entityTag } from './response/entity-tags.js';

/** Failures that belong to HTTP itself (content type, body framing, routing, the parser), with their fixed answers. */
export const httpFailures = {
  UnsupportedMediaType: { status: 415, error: 'Content-Type must be application/json' },
  UnsupportedContentEncoding: { status: 415, error: 'Content-Encoding must be identity' },
  InvalidJsonBody: { status: 400, error: 'Invalid JSON body' },
  InvalidIfMatch: { status: 400, error: 'If-Match must be * or a list of entity tags' },
  InvalidIdempotencyKey: { status: 400, error: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
  BodyTooLarge: { status: 413, error: 'Request body too large' },
  NotFound: { status: 404, error: 'Not found' },
  MethodNotAllowed: { status: 405, error: 'Method not allowed' },
  InternalError: { status: 500, error: 'Internal server error' },
  // Refused by Node's HTTP parser or its timeouts, before any route runs (node/client-error-response.ts).
  BadRequest: { status: 400, error: 'Bad request' },
  RequestTimeout: { status: 408, error: 'Request timeout' },
  RequestHeadersTooLarge: { status: 431, error: 'Request headers too large' },
  ExpectationFailed: { status: 417, error: 'Expectation failed' },
} as const satisfies Record<string, { status: ContentfulStatusCode; error: string }>;

export type HttpFailure = keyof typeof httpFailures;

/** Thrown by request parsing; answered with its fixed status and message. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(readonly failure: HttpFailure) {
    super(httpFailures[failure].error);
  }
}

/**
 * The one place a domain error becomes an answer: its status and the words the client reads
 * (docs/api.md), for every code of the domain's closed set. The Record type makes it exhaustive:
 * a new code does not compile until it has its answer here.
 */
export const domainFailures = {
  ValidationFailed: { status: 400, error: 'Validation failed' },
  EmailAlreadyInUse: { status: 409, error: 'Email already in use' },
  InvalidCredentials: { status: 401, error: 'Invalid email or password' },
  MissingAuthorization: { status: 401, error: 'Missing authorization header' },
  InvalidToken: { status: 401, error: 'Invalid token' },
  UserNoLongerExists: { status: 401, error: 'User no longer exists' },
  PostNotFound: { status: 404, error: 'Post not found' },
  SessionNotFound: { status: 404, error: 'Session not found' },
  CurrentPasswordIncorrect: { status: 403, error: 'Current password is incorrect' },
  AuthorIdNotYours: { status: 403, error: 'authorId must be your own user id' },
  NotTheAuthor: { status: 403, error: 'Only the author can change this post' },
  PreconditionFailed: { status: 412, error: 'Precondition failed' },
  PreconditionRequired: { status: 428, error: 'Precondition required' },
  IdempotencyKeyReused: { status: 422, error: 'Idempotency key reused with a different request' },
  IdempotencyKeyInProgress: { status: 409, error: 'Request with this idempotency key is in progress' },
  InvalidLinkToken: { status: 400, error: 'Invalid or expired token' },
  EmailAlreadyVerified: { status: 409, error: 'Email already verified' },
  // A use case the server does not offer has no route: it answers as an unknown path does.
  NotOffered: httpFailures.NotFound,
  StoreUnavailable: { status: 503, error: 'Service unavailable' },
  TooManyAttempts: { status: 429, error: 'Too many attempts, try again later' },
  ServerBusy: { status: 503, error: 'Server busy, try again' },
} as const satisfies Record<DomainErrorCode, { status: ContentfulStatusCode; error: string }>;

/**
 * The challenge every 401 carries (RFC 9110 §15.5.2): `Bearer`, with `error="invalid_token"` when
 * a token was sent and refused (RFC 6750 §3.1), without an error code when none was (no
 * credentials, credentials of another scheme, or a login's e-mail and password).
 */
export const BEARER_CHALLENGE = 'Bearer realm="inkwell"';
const INVALID_TOKEN_CHALLENGE = `${BEARER_CHALLENGE}, error="invalid_token"`;
const TOKEN_REFUSED: ReadonlySet<DomainErrorCode> = new Set(['InvalidToken', 'UserNoLongerExists']);

/**
 * The headers a domain error's answer carries besides the body: the 401 challenge, the wait of a
 * 409, 429 or 503, the post's current `ETag` with a 412, and `Idempotent-Replayed` on the answer
 * kept for an idempotency key.
 */
function failureHeaders(error: DomainError, status: ContentfulStatusCode): Record<string, string> | undefined {
  if (status === 401) return { 'WWW-Authenticate': TOKEN_REFUSED.has(error.code) ? INVALID_TOKEN_CHALLENGE : BEARER_CHALLENGE };
  if (error.retryAfterSeconds !== undefined) return { 'Retry-After': String(Math.ceil(error.retryAfterSeconds)) };
  if (error.version !== undefined) return { ETag: entityTag(error.version) };
  if (error.replayed) return { [IDEMPOTENT_REPLAYED]: 'true' };
  return undefined;
}

/** The header that marks an answer kept for an idempotency key and given again (Stripe's name for it). */
export const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

/**
 * The headers some of HTTP's own failures carry: a refused body names the one content coding
 * a body may have (RFC 9110 §15.5.16), whichever of the two was wrong.
 */
const ACCEPTS_IDENTITY = { 'Accept-Encoding': 'identity' };
const httpFailureHeaders: Partial<Record<HttpFailure, Record<string, string>>> = {
  UnsupportedMediaType: ACCEPTS_IDENTITY,
  UnsupportedContentEncoding: ACCEPTS_IDENTITY,
};

/** The JSON error body for one of HTTP's own failures. */
export function failureResponse(c: Context, failure: HttpFailure, headers?: Record<string, string>): Response {
  const { status, error } = httpFailures[failure];
  return c.json({ error }, status, headers);
}

/**
 * The response for a thrown value that is one of ours, or null for anything unexpected
 * (which the caller logs and answers with a bare 500).
 */
export function knownErrorResponse(c: Context, thrown: unknown): Response | null {
  if (thrown instanceof HttpError) return failureResponse(c, thrown.failure, httpFailureHeaders[thrown.failure]);
  if (isDomainError(thrown)) {
    const { status, error } = domainFailures[thrown.code];
    const body = thrown.issues ? { error, issues: thrown.issues } : { error };
    return c.json(body, status, failureHeaders(thrown, status));
  }
  return null;
}

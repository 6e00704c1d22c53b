import { domainErrorMessages, isDomainError, type DomainErrorCode } from '@inkwell/domain';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { jsonResponse } from './response/json-response.js';

/** Failures that belong to HTTP itself (content type, body framing, routing, the parser), with their fixed answers. */
export const httpFailures = {
  UnsupportedMediaType: { status: 415, error: 'Content-Type must be application/json' },
  InvalidJsonBody: { status: 400, error: 'Invalid JSON body' },
  BodyTooLarge: { status: 413, error: 'Request body too large' },
  NotFound: { status: 404, error: 'Not found' },
  MethodNotAllowed: { status: 405, error: 'Method not allowed' },
  InternalError: { status: 500, error: 'Internal server error' },
  // Refused by Node's HTTP parser or its timeouts, before any route runs (node/client-error-response.ts).
  BadRequest: { status: 400, error: 'Bad request' },
  RequestTimeout: { status: 408, error: 'Request timeout' },
  RequestHeadersTooLarge: { status: 431, error: 'Request headers too large' },
} as const satisfies Record<string, { status: ContentfulStatusCode; error: string }>;

export type HttpFailure = keyof typeof httpFailures;

/** Thrown by request parsing; answered with its fixed status and message. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(readonly failure: HttpFailure) {
    super(httpFailures[failure].error);
  }
}

/** The one place a domain error becomes a status. The Record type makes the mapping exhaustive. */
const statusByDomainError: Record<DomainErrorCode, ContentfulStatusCode> = {
  ValidationFailed: 400,
  EmailAlreadyInUse: 409,
  InvalidCredentials: 401,
  MissingAuthorization: 401,
  InvalidToken: 401,
  UserNoLongerExists: 401,
  PostNotFound: 404,
  AuthorIdNotYours: 403,
  NotTheAuthor: 403,
  StoreUnavailable: 503,
  TooManyAttempts: 429,
  ServerBusy: 503,
};

/** The JSON error body for one of HTTP's own failures. */
export function failureResponse(c: Context, failure: HttpFailure, headers?: Record<string, string>): Response {
  const { status, error } = httpFailures[failure];
  return jsonResponse(c, { error }, status, headers);
}

/**
 * The response for a thrown value that is one of ours, or null for anything unexpected
 * (which the caller logs and answers with a bare 500).
 */
export function knownErrorResponse(c: Context, thrown: unknown): Response | null {
  if (thrown instanceof HttpError) return failureResponse(c, thrown.failure);
  if (isDomainError(thrown)) {
    const body = thrown.issues
      ? { error: domainErrorMessages[thrown.code], issues: thrown.issues }
      : { error: domainErrorMessages[thrown.code] };
    const headers =
      thrown.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(Math.ceil(thrown.retryAfterSeconds)) };
    return jsonResponse(c, body, statusByDomainError[thrown.code], headers);
  }
  return null;
}

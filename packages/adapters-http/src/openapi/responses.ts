// Loaded with the routes, which write their operations with these helpers: so nothing here
// imports the converter (it loads on the first GET /openapi.json); routes get it through their
// operation's context (routes/route-table.ts).
import { isDomainError, parseInput, type DomainErrorCode, type ValidationIssue } from '@inkwell/domain';
import { domainFailures, httpFailures, type HttpFailure } from '../http-errors.js';
import type { AnySchema, JsonSchema } from './converter.js';
import type { OpenApiExample, OpenApiHeader, OpenApiMediaType, OpenApiResponse, OtherBadRequests } from './types.js';

/** A failure a response documents: one of the domain's codes or one of HTTP's own. */
export type Failure = DomainErrorCode | HttpFailure;

function isHttpFailure(failure: Failure): failure is HttpFailure {
  return Object.hasOwn(httpFailures, failure);
}

/** The exact message the API answers a failure with. */
function messageOf(failure: Failure): string {
  return isHttpFailure(failure) ? httpFailures[failure].error : domainFailures[failure].error;
}

function errorExample(failure: Failure): [string, OpenApiExample] {
  return [failure, { summary: messageOf(failure), value: { error: messageOf(failure) } }];
}

/** A reference to one of the document's components (openapi/components.ts). */
export const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });

/** The challenge every 401 carries (RFC 9110 §15.5.2, RFC 6750 §3.1). */
export const wwwAuthenticate: Readonly<Record<string, OpenApiHeader>> = {
  'WWW-Authenticate': {
    description:
      '`Bearer realm="inkwell"`, with `error="invalid_token"` when a token was sent and refused (it fails verification, its session ended or expired, or its account is gone).',
    schema: { type: 'string', pattern: '^Bearer realm="inkwell"(, error="invalid_token")?$' },
  },
};

/** The header of an answer that tells a refused client when to try again. */
export const retryAfter: Readonly<Record<string, OpenApiHeader>> = {
  'Retry-After': {
    description: 'Seconds after which trying again can succeed.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** A JSON answer of `schema`. */
export function json(description: string, schema: JsonSchema, extra: Partial<OpenApiMediaType> = {}): OpenApiResponse {
  return { description, content: { 'application/json': { schema, ...extra } } };
}

/** An error response with one example per failure, each with its exact message. */
export function errorResponse(description: string, failures: readonly Failure[], headers?: OpenApiResponse['headers']): OpenApiResponse {
  return {
    ...json(description, ref('Error'), { examples: Object.fromEntries(failures.map(errorExample)) }),
    ...(headers && { headers }),
  };
}

/**
 * The 400 of an operation. The validation example is what the domain's own schema reports for
 * `invalidSample`, so its issues are real. Operations with a body can also answer `Invalid JSON body`.
 */
export function badRequest(schema: AnySchema, invalidSample: unknown, hasBody: boolean, also?: OtherBadRequests): OpenApiResponse {
  const validation: OpenApiExample = {
    summary: domainFailures.ValidationFailed.error,
    value: { error: domainFailures.ValidationFailed.error, issues: issuesOf(schema, invalidSample) },
  };
  if (!hasBody) {
    return json('The query fails validation (every problem is listed).', ref('ValidationError'), {
      examples: { ValidationFailed: validation },
    });
  }
  const validationOrError = { oneOf: [ref('ValidationError'), ref('Error')] };
  const description = `The body is not a JSON object, or fails validation (every problem is listed)${also ? `; or ${also.description}` : ''}.`;
  return json(description, validationOrError, {
    examples: Object.fromEntries([['ValidationFailed', validation], errorExample('InvalidJsonBody'), ...(also?.failures ?? []).map(errorExample)]),
  });
}

/** The issues the domain reports for `invalidSample`, validated as its use cases validate. */
function issuesOf(schema: AnySchema, invalidSample: unknown): readonly ValidationIssue[] {
  try {
    parseInput(schema, invalidSample);
  } catch (error) {
    if (isDomainError(error, 'ValidationFailed') && error.issues) return error.issues;
    throw error;
  }
  throw new Error(`openapi: the invalid sample ${JSON.stringify(invalidSample)} passes validation`);
}

/** What every operation that reads a body can also answer. */
export const bodyFailures = {
  '413': errorResponse('The body is over 1 MiB; it is refused without reading the rest.', ['BodyTooLarge']),
  '415': errorResponse(
    'The body is not sent as `application/json`, or is compressed (a `Content-Encoding` other than `identity`).',
    ['UnsupportedMediaType', 'UnsupportedContentEncoding'],
    {
      'Accept-Encoding': {
        description: '`identity`: the only content coding a body may have.',
        schema: { type: 'string', const: 'identity' },
      },
    },
  ),
} as const;

/** What every operation can answer when the service itself fails. */
export const serverFailures = {
  '500': errorResponse('An unexpected failure. It is logged with the request id; the answer never carries details.', [
    'InternalError',
  ]),
  '503': errorResponse('The database cannot be reached. The server recovers on its own once it is back.', [
    'StoreUnavailable',
  ]),
} as const;

/** An operation that hashes a password in the bounded pool: it can also be refused as busy. */
export const hashingBusyFailures = {
  ...serverFailures,
  '503': errorResponse(
    'The database cannot be reached, or the password-hashing queue is full (then with `Retry-After`).',
    ['StoreUnavailable', 'ServerBusy'],
    retryAfter,
  ),
} as const;

/** Signup and login hash passwords in a bounded pool, under abuse limits: busy, or too many attempts. */
export const hashingServerFailures = {
  ...hashingBusyFailures,
  '429': errorResponse('Too many attempts from this client or for this account; wait `Retry-After` seconds.', ['TooManyAttempts'], retryAfter),
} as const;

/** A post write (create, change, delete), counted against the client's write budget. */
export const postWriteFailures = {
  '429': errorResponse(
    'Past the write budget of this client address (post writes per hour, a setting of the service); nothing was written. Wait `Retry-After` seconds.',
    ['TooManyAttempts'],
    retryAfter,
  ),
} as const;

/** An operation that needs no token. */
export const publicOperation = { security: [] } as const;

/** An operation that needs a bearer token. */
export const bearerOperation = { security: [{ bearerAuth: [] }] } as const;

/** An operation anyone may call, whose token is checked when one is sent (OpenAPI 3.1's empty requirement). */
export const optionalBearerOperation = { security: [{}, { bearerAuth: [] }] } as const;

/** The `GET /me` rules' failures, in their order: every operation that checks a token can answer each. */
const authenticationFailures = ['MissingAuthorization', 'InvalidToken', 'UserNoLongerExists'] as const;

/** The 401 of an operation that checks a token, with the three `GET /me` messages and the challenge. */
export function unauthorized(description: string): OpenApiResponse {
  return errorResponse(description, authenticationFailures, wwwAuthenticate);
}

/** The 401 of an operation that needs a token. */
export const tokenRequired = unauthorized(
  'No token (no `Authorization` header, or one that is not `Bearer` credentials), a token that fails verification or whose session ended or expired, or a deleted account. Checked before anything else.',
);

/** The 401 of an operation anyone may call, when the credentials sent with it fail. */
export const sentTokenRefused = unauthorized(
  'An `Authorization` header was sent and fails the `GET /me` rules: it is not `Bearer` credentials, its token fails verification or its session ended, or its account is deleted. Without the header the request is anonymous.',
);

/** The `ETag` of an answer that carries one post, or of a 412: the version the post is at. */
export const etagHeader: Readonly<Record<string, OpenApiHeader>> = {
  ETag: {
    description:
      "The post's version, a strong entity tag: opaque, quoted, and new at every change. Send it back in `If-Match` to change or delete the post only as you saw it, or in `If-None-Match` to read it only if it changed.",
    schema: { type: 'string', pattern: '^"(0|[1-9][0-9]*)"$' },
  },
};

/** The header of the answer kept for an idempotency key, when it is given again. */
export const idempotentReplayed: Readonly<Record<string, OpenApiHeader>> = {
  'Idempotent-Replayed': {
    description: '`true` when the answer is the one kept for the request first sent with this `Idempotency-Key`, given again; absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The `Cache-Control` of every answer about one post, by posts access mode. */
export const POST_CACHE_CONTROL = { open: 'no-cache', owner: 'private, no-cache' } as const;

/**
 * `responses` with the `Cache-Control` of an answer about one post documented on each: a cache
 * must ask again before using one (`no-cache`), and with owned posts, where the answer depends on
 * the token, only the client's own cache may keep it (`private`).
 */
export function withPostCaching(responses: Readonly<Record<string, OpenApiResponse>>, mode: keyof typeof POST_CACHE_CONTROL): Record<string, OpenApiResponse> {
  const value = POST_CACHE_CONTROL[mode];
  return withHeaders(responses, {
    'Cache-Control': {
      description: `\`${value}\`: a cache must ask again (\`If-None-Match\`) before it uses the answer${mode === 'owner' ? ", and only the client's own cache may keep it, since it depends on the token" : ''}.`,
      schema: { type: 'string', const: value },
    },
  });
}

/** The header of an answer no shared cache may keep, saying what it carries (`why`). */
function noStoreHeader(why: string): Readonly<Record<string, OpenApiHeader>> {
  return {
    'Cache-Control': {
      description: `\`no-store\`: ${why}, so no proxy or CDN may keep it.`,
      schema: { type: 'string', const: 'no-store' },
    },
  };
}

/**
 * `responses` with `Cache-Control: no-store` documented on every one of them; `why` says what
 * the answers carry (a token or an account unless told otherwise).
 */
export function withNoStore(
  responses: Readonly<Record<string, OpenApiResponse>>,
  why = 'the answer carries a token or an account',
): Record<string, OpenApiResponse> {
  return withHeaders(responses, noStoreHeader(why));
}

/** `responses` with `headers` documented on every one of them. */
function withHeaders(responses: Readonly<Record<string, OpenApiResponse>>, headers: Readonly<Record<string, OpenApiHeader>>): Record<string, OpenApiResponse> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...response.headers, ...headers } }]),
  );
}

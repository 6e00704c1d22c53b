import {
  CreatePostSchema,
  ListPostsQuerySchema,
  LogInSchema,
  PaginationSchema,
  PostPageSchema,
  PostSchema,
  PublicUserSchema,
  SessionSchema,
  SignUpSchema,
  UpdatePostSchema,
  domainErrorMessages,
  toValidationIssues,
  type DomainErrorCode,
} from '@inkwell/domain';
import * as v from 'valibot';
import { httpFailures, type HttpFailure } from '../http-errors.js';
import { createSchemaConverter, type AnySchema, type JsonSchema, type QueryParameter } from './converter.js';
import {
  ErrorSchema,
  HealthSchema,
  PostEnvelopeSchema,
  UserEnvelopeSchema,
  ValidationErrorSchema,
  ValidationIssueSchema,
} from './response-schemas.js';

/** The version in `info.version`: the adapter package's own (a test keeps them equal). */
export const API_VERSION = '0.1.0';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

export interface OpenApiExample {
  readonly summary: string;
  readonly value: unknown;
}

export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, OpenApiExample>>;
}

export interface OpenApiHeader {
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader>>;
  readonly content?: { readonly 'application/json': OpenApiMediaType };
}

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: { readonly required: true; readonly content: { readonly 'application/json': OpenApiMediaType } };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/** The parts of an OpenAPI 3.1 document inkwell uses. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string; readonly description: string }[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, Readonly<Partial<Record<HttpMethod, OpenApiOperation>>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
}

/** A failure a response documents: one of the domain's codes or one of HTTP's own. */
type Failure = DomainErrorCode | HttpFailure;

const converter = createSchemaConverter({
  Post: PostSchema,
  User: PublicUserSchema,
  Pagination: PaginationSchema,
  PostPage: PostPageSchema,
  Session: SessionSchema,
  Error: ErrorSchema,
  ValidationIssue: ValidationIssueSchema,
  ValidationError: ValidationErrorSchema,
  Health: HealthSchema,
  SignUpRequest: SignUpSchema,
  LogInRequest: LogInSchema,
  CreatePostRequest: CreatePostSchema,
  UpdatePostRequest: UpdatePostSchema,
});

const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });

function isHttpFailure(failure: Failure): failure is HttpFailure {
  return Object.hasOwn(httpFailures, failure);
}

/** The exact message the API answers a failure with. */
function messageOf(failure: Failure): string {
  return isHttpFailure(failure) ? httpFailures[failure].error : domainErrorMessages[failure];
}

function errorExample(failure: Failure): [string, OpenApiExample] {
  return [failure, { summary: messageOf(failure), value: { error: messageOf(failure) } }];
}

const retryAfter: Readonly<Record<string, OpenApiHeader>> = {
  'Retry-After': {
    description: 'Seconds after which trying again can succeed.',
    schema: { type: 'integer', minimum: 0 },
  },
};

function json(description: string, schema: JsonSchema, extra: Partial<OpenApiMediaType> = {}): OpenApiResponse {
  return { description, content: { 'application/json': { schema, ...extra } } };
}

/** An error response with one example per failure, each with its exact message. */
function errorResponse(description: string, failures: readonly Failure[], headers?: OpenApiResponse['headers']): OpenApiResponse {
  return {
    ...json(description, ref('Error'), { examples: Object.fromEntries(failures.map(errorExample)) }),
    ...(headers && { headers }),
  };
}

/**
 * The 400 of an operation. The validation example is what the domain's own schema reports for
 * `invalidSample`, so its issues are real. Operations with a body can also answer `Invalid JSON body`.
 */
function badRequest(schema: AnySchema, invalidSample: unknown, hasBody: boolean): OpenApiResponse {
  const result = v.safeParse(schema, invalidSample);
  if (result.success) throw new Error(`openapi: the invalid sample ${JSON.stringify(invalidSample)} passes validation`);
  const validation: OpenApiExample = {
    summary: domainErrorMessages.ValidationFailed,
    value: { error: domainErrorMessages.ValidationFailed, issues: toValidationIssues(result.issues) },
  };
  if (!hasBody) {
    return json('The query fails validation (every problem is listed).', ref('ValidationError'), {
      examples: { ValidationFailed: validation },
    });
  }
  const validationOrError = { oneOf: [ref('ValidationError'), ref('Error')] };
  return json('The body is not a JSON object, or fails validation (every problem is listed).', validationOrError, {
    examples: Object.fromEntries([['ValidationFailed', validation], errorExample('InvalidJsonBody')]),
  });
}

function jsonBody(component: string, example: unknown): OpenApiOperation['requestBody'] {
  return { required: true, content: { 'application/json': { schema: ref(component), example } } };
}

const bodyFailures = {
  '413': errorResponse('The body is over 1 MiB; it is refused without reading the rest.', ['BodyTooLarge']),
  '415': errorResponse('The body is not sent as `application/json`.', ['UnsupportedMediaType']),
} as const;

const serverFailures = {
  '500': errorResponse('An unexpected failure. It is logged with the request id; the answer never carries details.', [
    'InternalError',
  ]),
  '503': errorResponse('The database cannot be reached. The server recovers on its own once it is back.', [
    'StoreUnavailable',
  ]),
} as const;

/** Signup and login hash passwords in a bounded pool: they can also be refused as busy. */
const hashingServerFailures = {
  ...serverFailures,
  '503': errorResponse(
    'The database cannot be reached, or the password-hashing queue is full (then with `Retry-After`).',
    ['StoreUnavailable', 'ServerBusy'],
    retryAfter,
  ),
  '429': errorResponse('Too many attempts from this client or for this account; wait `Retry-After` seconds.', ['TooManyAttempts'], retryAfter),
} as const;

const postNotFound = errorResponse('No post has that id.', ['PostNotFound']);

const postId: OpenApiParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The post id. Any string is accepted; one that names no post is 404.',
  schema: { type: 'string' },
};

/** `GET /posts`'s query parameters, from the domain's query schema. */
function listParameters(): OpenApiParameter[] {
  return converter.queryParameters(ListPostsQuerySchema).map(
    (parameter: QueryParameter): OpenApiParameter => ({
      ...parameter,
      description: parameter.name === 'page' ? 'The page to return, from 1.' : 'Posts per page.',
    }),
  );
}

const publicOperation = { security: [] } as const;
const aliceSignUp = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };

const DESCRIPTION = `Accounts (signup, login with a signed token, \`GET /me\`) and blog posts (a paged list of published posts, read, create, partial update, delete).

- Request bodies are JSON objects sent as \`application/json\` (a \`charset\` parameter is fine), at most 1 MiB. Unknown fields are ignored; \`id\`, \`createdAt\` and \`updatedAt\` are never taken from a client.
- Every error is \`{ "error": "<message>" }\` with a fixed message per failure. A validation failure is 400 \`Validation failed\` and lists every problem in \`issues\`.
- Strings are validated as sent (only \`email\` is trimmed and lower-cased), must be well-formed Unicode (no unpaired surrogates), and their lengths are counted in UTF-16 code units.
- An unknown path is 404 \`Not found\`; a known path with another method is 405 \`Method not allowed\` with an \`Allow\` header.`;

/**
 * The OpenAPI 3.1 document of the whole API. Every schema in it is generated from the valibot
 * schemas that validate requests (in the domain) and describe responses, and every error
 * example carries the exact message the API answers with.
 */
export function createOpenApiDocument(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'inkwell', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: [
      { name: 'Accounts', description: 'Signup, login and the current user.' },
      { name: 'Posts', description: 'Blog posts. No authentication needed.' },
      { name: 'Operations', description: 'For load balancers and monitoring.' },
    ],
    paths: {
      '/auth/signup': {
        post: {
          operationId: 'signUp',
          summary: 'Create an account',
          description:
            'Creates an account and answers a token for it. The e-mail is trimmed and lower-cased before it is validated and stored; each e-mail can sign up once.',
          tags: ['Accounts'],
          ...publicOperation,
          requestBody: jsonBody('SignUpRequest', aliceSignUp),
          responses: {
            '201': json('Account created; the token is for the new user.', ref('Session')),
            '400': badRequest(SignUpSchema, { email: 'not-an-email', name: '', password: 'short' }, true),
            '409': errorResponse('An account with that e-mail exists.', ['EmailAlreadyInUse']),
            ...bodyFailures,
            ...hashingServerFailures,
          },
        },
      },
      '/auth/login': {
        post: {
          operationId: 'logIn',
          summary: 'Log in',
          description:
            'Exchanges e-mail and password for a token. An unknown e-mail and a wrong password get the same answer, in the same time.',
          tags: ['Accounts'],
          ...publicOperation,
          requestBody: jsonBody('LogInRequest', { email: aliceSignUp.email, password: aliceSignUp.password }),
          responses: {
            '200': json('Logged in.', ref('Session')),
            '400': badRequest(LogInSchema, { email: 'not-an-email', password: '' }, true),
            '401': errorResponse('Unknown e-mail or wrong password.', ['InvalidCredentials']),
            ...bodyFailures,
            ...hashingServerFailures,
          },
        },
      },
      '/me': {
        get: {
          operationId: 'getMe',
          summary: 'The current user',
          description: 'The account that owns the bearer token.',
          tags: ['Accounts'],
          security: [{ bearerAuth: [] }],
          responses: {
            '200': json('The account behind the token.', converter.toSchema(UserEnvelopeSchema)),
            '401': errorResponse('No `Bearer` credentials, a token that fails verification, or a deleted account.', [
              'MissingAuthorization',
              'InvalidToken',
              'UserNoLongerExists',
            ]),
            ...serverFailures,
          },
        },
      },
      '/posts': {
        get: {
          operationId: 'listPosts',
          summary: 'List published posts',
          description:
            'Published posts, newest first (then by id, so pages are stable). A page past the last one is empty, with the requested page echoed.',
          tags: ['Posts'],
          ...publicOperation,
          parameters: listParameters(),
          responses: {
            '200': json('One page of published posts.', ref('PostPage')),
            '400': badRequest(ListPostsQuerySchema, { page: '0', perPage: '101' }, false),
            ...serverFailures,
          },
        },
        post: {
          operationId: 'createPost',
          summary: 'Create a post',
          description: 'Stores a new post; the id and both times are assigned by the service.',
          tags: ['Posts'],
          ...publicOperation,
          requestBody: jsonBody('CreatePostRequest', { title: 'Hello', body: 'First post', authorId: 'alice', published: true }),
          responses: {
            '201': json('The stored post.', converter.toSchema(PostEnvelopeSchema)),
            '400': badRequest(CreatePostSchema, { title: '', body: 'First post', published: 'yes' }, true),
            ...bodyFailures,
            ...serverFailures,
          },
        },
      },
      '/posts/{id}': {
        get: {
          operationId: 'getPost',
          summary: 'Read a post',
          description: 'One post by id, published or not.',
          tags: ['Posts'],
          ...publicOperation,
          parameters: [postId],
          responses: {
            '200': json('The post.', converter.toSchema(PostEnvelopeSchema)),
            '404': postNotFound,
            ...serverFailures,
          },
        },
        patch: {
          operationId: 'updatePost',
          summary: 'Change a post',
          description:
            'Applies `title`, `body` and `published` when present. `authorId` is validated but never changes. A missing post is 404 before the body is read; `{}` is valid and still saves.',
          tags: ['Posts'],
          ...publicOperation,
          parameters: [postId],
          requestBody: jsonBody('UpdatePostRequest', { title: 'Hello again' }),
          responses: {
            '200': json('The saved post.', converter.toSchema(PostEnvelopeSchema)),
            '400': badRequest(UpdatePostSchema, { title: '', published: 'true' }, true),
            '404': postNotFound,
            ...bodyFailures,
            ...serverFailures,
          },
        },
        delete: {
          operationId: 'deletePost',
          summary: 'Delete a post',
          description: 'Deletes the post.',
          tags: ['Posts'],
          ...publicOperation,
          parameters: [postId],
          responses: {
            '204': { description: 'Deleted. No body and no content type.' },
            '404': postNotFound,
            ...serverFailures,
          },
        },
      },
      '/health': {
        get: {
          operationId: 'getHealth',
          summary: 'Health check',
          description: 'Whether the server and its database answer.',
          tags: ['Operations'],
          ...publicOperation,
          responses: {
            '200': json('The database answers.', ref('Health'), { example: { status: 'ok' } }),
            '503': json('The database does not answer.', ref('Health'), { example: { status: 'unavailable' } }),
          },
        },
      },
    },
    components: {
      schemas: converter.componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token from signup or login, valid for 7 days.',
        },
      },
    },
  };
}

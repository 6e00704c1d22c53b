import {
  ChangePasswordSchema,
  ConfirmPasswordResetSchema,
  createInMemoryOutbox,
  CreateOwnPostSchema,
  CreatePostSchema,
  DeleteAccountSchema,
  DomainError,
  LogInSchema,
  LogOutSchema,
  POST_ACCESS_MODES,
  RequestPasswordResetSchema,
  SignUpSchema,
  UpdateAccountSchema,
  UpdatePostSchema,
  VerifyEmailSchema,
  postAccessPolicy,
  type DomainErrorCode,
  type PostAccessMode,
} from '@inkwell/domain';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { HttpError, domainFailures, httpFailures, knownErrorResponse, type HttpFailure } from '../http-errors.js';
import { LINK_PAGE_PATHS } from '../link-pages/link-page-routes.js';
import { testHttpApp } from '../test-support/test-app.js';
import { apiRoutes } from '../routes/api-routes.js';
import { createOpenApiDocument } from './document.js';
import { API_VERSION, type OpenApiDocument } from './types.js';

/** Every operation of `document`, with the `method path` the checks name it by. */
function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, name: `${method} ${path}`, operation })),
  );
}

/** Answers `GET /<failure>` exactly as the app answers that failure: through the one error table. */
const failureProbe = new Hono().get('/:failure', (c) => {
  const failure = c.req.param('failure');
  if (Object.hasOwn(httpFailures, failure)) throw new HttpError(failure as HttpFailure);
  const issues = failure === 'ValidationFailed' ? [{ path: '', message: 'x' }] : undefined;
  throw new DomainError(failure as DomainErrorCode, issues);
});
failureProbe.onError((thrown, c) => knownErrorResponse(c, thrown) ?? c.text(`unexpected: ${String(thrown)}`, 500));

const bearer = [{ bearerAuth: [] }];
const optionalBearer = [{}, { bearerAuth: [] }];

/** The account's own operations: each needs a token, in every mode. */
const ACCOUNT_SECURITY: Record<string, unknown> = {
  'get /me': bearer,
  'patch /me': bearer,
  'delete /me': bearer,
  'post /auth/logout': bearer,
  'post /auth/refresh': bearer,
  'post /auth/password': bearer,
  'get /me/account': bearer,
  'get /me/sessions': bearer,
  'delete /me/sessions/{id}': bearer,
  'post /me/verify-email': bearer,
};

/** The security of every operation that is not public, per mode: owner mode asks for tokens on posts. */
const SECURITY: Record<PostAccessMode, Record<string, unknown>> = {
  open: ACCOUNT_SECURITY,
  owner: {
    ...ACCOUNT_SECURITY,
    'get /posts': optionalBearer,
    'post /posts': bearer,
    'get /posts/{id}': optionalBearer,
    'patch /posts/{id}': bearer,
    'delete /posts/{id}': bearer,
    'get /me/posts': bearer,
  },
};

/** The changes that need the current password, refused 403 when it is wrong, in every mode. */
const PASSWORD_CHECKED: Record<string, DomainErrorCode> = {
  'post /auth/password': 'CurrentPasswordIncorrect',
  'patch /me': 'CurrentPasswordIncorrect',
  'delete /me': 'CurrentPasswordIncorrect',
};

/** The 403s per mode: a wrong current password, and where posts have owners, the writes the author rules refuse. */
const FORBIDDEN: Record<PostAccessMode, Record<string, DomainErrorCode>> = {
  open: PASSWORD_CHECKED,
  owner: { ...PASSWORD_CHECKED, 'post /posts': 'AuthorIdNotYours', 'patch /posts/{id}': 'NotTheAuthor', 'delete /posts/{id}': 'NotTheAuthor' },
};

/** The domain schema each request-body component is converted from. */
const REQUEST_SCHEMAS: Record<string, v.GenericSchema> = {
  SignUpRequest: SignUpSchema,
  LogInRequest: LogInSchema,
  LogOutRequest: LogOutSchema,
  ChangePasswordRequest: ChangePasswordSchema,
  UpdateAccountRequest: UpdateAccountSchema,
  DeleteAccountRequest: DeleteAccountSchema,
  CreatePostRequest: CreatePostSchema,
  CreateOwnPostRequest: CreateOwnPostSchema,
  UpdatePostRequest: UpdatePostSchema,
  PasswordResetRequest: RequestPasswordResetSchema,
  PasswordResetConfirmRequest: ConfirmPasswordResetSchema,
  VerifyEmailRequest: VerifyEmailSchema,
};

/** The operations that exist only with mail on, and the request bodies only they take. */
const MAIL_OPERATIONS = ['post /auth/password-reset', 'post /auth/password-reset/confirm', 'post /auth/verify-email', 'post /me/verify-email'];
const MAIL_BODIES = ['PasswordResetRequest', 'PasswordResetConfirmRequest', 'VerifyEmailRequest'];

/** Every mode, with mail off and on. */
const SERVERS = POST_ACCESS_MODES.flatMap((mode) => [
  { mode, mail: false, label: `POSTS_ACCESS=${mode}, mail off` },
  { mode, mail: true, label: `POSTS_ACCESS=${mode}, mail on` },
]);

const AUTHENTICATION_MESSAGES: readonly string[] = [
  domainFailures.MissingAuthorization.error,
  domainFailures.InvalidToken.error,
  domainFailures.UserNoLongerExists.error,
];

describe.each(SERVERS)('the OpenAPI document with $label', ({ mode, mail }) => {
  const server = { postAccess: postAccessPolicy(mode), ...(mail && { outbox: createInMemoryOutbox() }) };
  const document = createOpenApiDocument(apiRoutes, server);
  const operations = operationsOf(document);

  it('describes exactly the routes the app serves in this mode, the docs and the pages a mailed link opens aside', () => {
    const pages: readonly string[] = LINK_PAGE_PATHS;
    const served = testHttpApp(server)
      .routes.filter((route) => route.method !== 'ALL' && route.path !== '/openapi.json' && !route.path.startsWith('/docs') && !pages.includes(route.path))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(operations.map(({ name }) => name).sort()).toEqual([...new Set(served)].sort());
  });

  it('is OpenAPI 3.1 with the shared components, unique operation ids, and the bearer scheme exactly where the mode checks tokens', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Post', 'User', 'Pagination', 'PostPage', 'Error', 'ValidationError']),
    );
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.fromEntries(operations.map(({ name, operation }) => [name, operation.security]))).toEqual(
      Object.fromEntries(operations.map(({ name }) => [name, SECURITY[mode][name] ?? []])),
    );
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
  });

  it('answers 401 with the three GET /me messages and the challenge wherever a token is checked, and 403 only where a rule refuses', () => {
    for (const { name, operation } of operations) {
      const checksTokens = operation.security.some((requirement) => 'bearerAuth' in requirement);
      const unauthorized = Object.values(operation.responses['401']?.content?.['application/json'].examples ?? {});
      const messages = unauthorized.map((example) => (example.value as { error: string }).error);
      if (checksTokens) expect({ name, messages }).toEqual({ name, messages: AUTHENTICATION_MESSAGES });
      else expect({ name, messages: messages.filter((message) => AUTHENTICATION_MESSAGES.includes(message)) }).toEqual({ name, messages: [] });
      const challenge = operation.responses['401']?.headers?.['WWW-Authenticate'];
      expect({ name, challenged: challenge !== undefined }).toEqual({ name, challenged: operation.responses['401'] !== undefined });

      const forbidden = FORBIDDEN[mode][name];
      const examples = operation.responses['403']?.content?.['application/json'].examples;
      expect({ name, forbidden: examples && Object.keys(examples) }).toEqual({ name, forbidden: forbidden && [forbidden] });
    }
  });

  it('documents each failure under the status the error table answers it with, with its exact message', async () => {
    let checked = 0;
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [failure, example] of Object.entries(response.content?.['application/json'].examples ?? {})) {
          const res = await failureProbe.request(`/${failure}`);
          const answered = (await res.json()) as { error: string };
          const where = `${method} ${path} ${status} ${failure}`;
          expect(`${where} → ${res.status}`).toBe(`${where} → ${status}`);
          expect((example.value as { error: string }).error).toBe(answered.error);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan((mode === 'owner' ? 60 : 40) + (mail ? 10 : 0));
  });

  it(mail ? 'documents the mail operations and their bodies' : 'leaves the mail operations and their bodies out', () => {
    const names = operations.map(({ name }) => name);
    for (const name of MAIL_OPERATIONS) expect(names.includes(name)).toBe(mail);
    for (const body of MAIL_BODIES) expect(Object.hasOwn(document.components.schemas, body)).toBe(mail);
    expect(document.info.description.includes('Mail is on')).toBe(mail);
  });

  it('gives every request body an example that the domain schema it is converted from accepts', () => {
    let checked = 0;
    for (const { name, operation } of operations) {
      const media = operation.requestBody?.content['application/json'];
      if (!media) continue;
      const component = String(media.schema.$ref).replace('#/components/schemas/', '');
      const schema = REQUEST_SCHEMAS[component];
      expect({ name, component, known: schema !== undefined }).toEqual({ name, component, known: true });
      expect(schema && v.safeParse(schema, media.example).success).toBe(true);
      checked++;
    }
    expect(checked).toBe(mail ? 11 : 8);
  });

  it('generates the request and query schemas from the domain schemas', () => {
    const schemas = document.components.schemas;
    expect(schemas.SignUpRequest).toMatchObject({
      required: ['email', 'name', 'password'],
      properties: { password: { minLength: 8, maxLength: 72 }, name: { minLength: 1, maxLength: 100 } },
    });
    expect(document.paths['/posts']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'page', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, default: 1 }) }),
      expect.objectContaining({ name: 'perPage', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 20 }) }),
    ]);
    expect(schemas.Post).toMatchObject({ additionalProperties: false, required: expect.arrayContaining(['id', 'createdAt']) });
    expect(JSON.stringify(document)).not.toContain('#/$defs/');
  });

  it('describes the user object as exactly { id, email, name }, and the account state as Account, at GET /me/account', () => {
    const schemas = document.components.schemas;
    expect(schemas.User).toMatchObject({ type: 'object', required: ['id', 'email', 'name'], additionalProperties: false });
    expect(Object.keys(schemas.User?.properties ?? {})).toEqual(['id', 'email', 'name']);
    expect(schemas.Account).toMatchObject({
      type: 'object',
      required: ['id', 'email', 'name', 'emailVerified', 'createdAt', 'updatedAt'],
      additionalProperties: false,
      properties: { emailVerified: { type: 'boolean' }, createdAt: { type: 'integer' }, updatedAt: { type: 'integer' } },
    });
    expect(Object.keys(schemas.Account?.properties ?? {})).toEqual(['id', 'email', 'name', 'emailVerified', 'createdAt', 'updatedAt']);
    const accountEnvelope = {
      type: 'object',
      properties: { account: { $ref: '#/components/schemas/Account' } },
      required: ['account'],
      additionalProperties: false,
    };
    const getAccount = document.paths['/me/account']?.get;
    expect(getAccount).toMatchObject({ operationId: 'getMyAccount', tags: ['Accounts'] });
    expect(Object.keys(getAccount?.responses ?? {})).toEqual(['200', '401', '500', '503']);
    expect(getAccount?.responses['200']?.content?.['application/json'].schema).toEqual(accountEnvelope);
    for (const response of Object.values(getAccount?.responses ?? {})) {
      expect(response.headers?.['Cache-Control']?.schema).toEqual({ type: 'string', const: 'no-store' });
    }
    const verified = document.paths['/auth/verify-email']?.post?.responses['200']?.content?.['application/json'].schema;
    expect(verified).toEqual(mail ? accountEnvelope : undefined);
    const accountReferences = JSON.stringify(document).match(/#\/components\/schemas\/Account"/g) ?? [];
    expect(accountReferences).toHaveLength(mail ? 2 : 1);
  });

  it('is built the same every time', () => {
    expect(createOpenApiDocument(apiRoutes, server)).toStrictEqual(document);
  });
});

describe('the OpenAPI document per access mode', () => {
  const open = createOpenApiDocument(apiRoutes, { postAccess: postAccessPolicy('open') });
  const owner = createOpenApiDocument(apiRoutes, { postAccess: postAccessPolicy('owner') });

  it('is the open one by default', () => {
    expect(createOpenApiDocument(apiRoutes)).toStrictEqual(open);
  });

  it("takes POST /posts's body as the mode's domain schema has it: authorId required when open, optional with owners", () => {
    const body = (document: OpenApiDocument) => document.paths['/posts']?.post?.requestBody?.content['application/json'];
    expect(body(open)?.schema).toEqual({ $ref: '#/components/schemas/CreatePostRequest' });
    expect(open.components.schemas.CreatePostRequest).toMatchObject({
      required: ['title', 'body', 'authorId'],
      properties: { title: { maxLength: 200 }, published: { type: 'boolean', default: false } },
    });
    expect(open.components.schemas).not.toHaveProperty('CreateOwnPostRequest');

    expect(body(owner)?.schema).toEqual({ $ref: '#/components/schemas/CreateOwnPostRequest' });
    expect(owner.components.schemas.CreateOwnPostRequest).toMatchObject({
      required: ['title', 'body'],
      properties: { authorId: { type: 'string', minLength: 1 }, title: { maxLength: 200 }, published: { type: 'boolean', default: false } },
    });
    expect(owner.components.schemas).not.toHaveProperty('CreatePostRequest');
    expect(body(owner)?.example).not.toHaveProperty('authorId');
  });

  it('documents GET /me/posts with owners only: the query and page of GET /posts, and no-store on every answer', () => {
    expect(open.paths).not.toHaveProperty('/me/posts');
    const listOwn = owner.paths['/me/posts']?.get;
    expect(listOwn).toMatchObject({ operationId: 'listOwnPosts', tags: ['Posts'] });
    expect(listOwn?.parameters).toEqual(owner.paths['/posts']?.get?.parameters);
    expect(Object.keys(listOwn?.responses ?? {})).toEqual(['200', '400', '401', '500', '503']);
    expect(listOwn?.responses['200']?.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/PostPage' });
    expect(listOwn?.responses['400']?.content).toEqual(owner.paths['/posts']?.get?.responses['400']?.content);
    for (const response of Object.values(listOwn?.responses ?? {})) {
      expect(response.headers?.['Cache-Control']?.schema).toEqual({ type: 'string', const: 'no-store' });
    }
  });

  it('says in every post operation, in the tag and in the overview what owner mode changes', () => {
    for (const [path, item] of Object.entries(open.paths).filter(([path]) => path.startsWith('/posts'))) {
      for (const [method, operation] of Object.entries(item)) {
        expect(owner.paths[path]?.[method as 'get']?.description, `${method} ${path}`).not.toBe(operation.description);
      }
    }
    expect(owner.paths['/posts/{id}']?.get?.description).toContain('draft');
    expect(owner.tags.find((tag) => tag.name === 'Posts')?.description).not.toBe(open.tags.find((tag) => tag.name === 'Posts')?.description);
    expect(owner.info.description.startsWith(open.info.description)).toBe(true);
    expect(owner.info.description).toContain('GET /me/posts');
  });

  it('documents the headers of safe writes: If-None-Match, If-Match and Idempotency-Key as header parameters, ETag and Cache-Control on the answers', () => {
    for (const [document, cacheControl] of [[open, 'no-cache'], [owner, 'private, no-cache']] as const) {
      const item = document.paths['/posts/{id}'];
      const create = document.paths['/posts']?.post;
      const headerParameters = (operation: { parameters?: readonly { in: string; name: string }[] } | undefined) =>
        (operation?.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);
      expect([headerParameters(item?.get), headerParameters(item?.patch), headerParameters(item?.delete), headerParameters(create)]).toEqual([
        ['If-None-Match'],
        ['If-Match'],
        ['If-Match'],
        ['Idempotency-Key'],
      ]);
      expect(headerParameters(document.paths['/posts']?.get)).toEqual([]);
      expect(Object.keys(item?.get?.responses ?? {})).toContain('304');
      expect(item?.get?.responses['304']?.content).toBeUndefined();
      for (const status of ['200', '304']) expect(item?.get?.responses[status]?.headers).toHaveProperty('ETag');
      expect(item?.patch?.responses['412']?.headers).toHaveProperty('ETag');
      expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['201', '409', '422']));
      expect(create?.responses['201']?.headers).toHaveProperty('Idempotent-Replayed');
      for (const operation of [item?.get, item?.patch, item?.delete, create]) {
        for (const response of Object.values(operation?.responses ?? {})) expect(response.headers?.['Cache-Control']?.schema).toEqual({ type: 'string', const: cacheControl });
      }
      expect(document.paths['/posts']?.get?.responses['200']?.headers).toBeUndefined();
    }
  });

  it('documents 428 only on a server that requires writes to be conditional', () => {
    const required = createOpenApiDocument(apiRoutes, { postAccess: postAccessPolicy('open'), safeWriteRules: { requirePrecondition: true, idempotencyTtlMs: 1, idempotencyLeaseMs: 1 } });
    for (const method of ['patch', 'delete'] as const) {
      expect(open.paths['/posts/{id}']?.[method]?.responses).not.toHaveProperty('428');
      expect(required.paths['/posts/{id}']?.[method]?.responses['428']?.content?.['application/json'].examples).toHaveProperty('PreconditionRequired');
      expect(required.paths['/posts/{id}']?.[method]?.description).toContain('428');
    }
  });

  it("carries the adapter package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(open.info.version).toBe(API_VERSION);
    expect(owner.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe(pkg.version);
  });
});

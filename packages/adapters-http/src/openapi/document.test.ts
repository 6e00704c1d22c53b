import { DomainError, type DomainErrorCode } from '@inkwell/domain';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpError, httpFailures, knownErrorResponse, type HttpFailure } from '../http-errors.js';
import { testHttpApp } from '../test-support/test-app.js';
import { createOpenApiDocument } from './document.js';
import { API_VERSION } from './types.js';

const document = createOpenApiDocument();
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);

/** Answers `GET /<failure>` exactly as the app answers that failure: through the one error table. */
const failureProbe = new Hono().get('/:failure', (c) => {
  const failure = c.req.param('failure');
  if (Object.hasOwn(httpFailures, failure)) throw new HttpError(failure as HttpFailure);
  const issues = failure === 'ValidationFailed' ? [{ path: '', message: 'x' }] : undefined;
  throw new DomainError(failure as DomainErrorCode, issues);
});
failureProbe.onError((thrown, c) => knownErrorResponse(c, thrown) ?? c.text(`unexpected: ${String(thrown)}`, 500));

describe('the OpenAPI document', () => {
  it('describes exactly the routes the app serves, the docs themselves aside', () => {
    const served = testHttpApp()
      .routes.filter((route) => route.method !== 'ALL' && route.path !== '/openapi.json' && !route.path.startsWith('/docs'))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([...new Set(served)].sort());
  });

  it('is OpenAPI 3.1 with the Post, User, Pagination and error components and the bearer scheme on /me only', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Post', 'User', 'Pagination', 'Error', 'ValidationError']),
    );
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { path, operation } of operations) {
      expect(operation.security).toEqual(path === '/me' ? [{ bearerAuth: [] }] : []);
    }
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
  });

  it("carries the adapter package's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(document.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe(pkg.version);
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
    expect(checked).toBeGreaterThan(40);
  });

  it('generates the request and query schemas from the domain schemas', () => {
    const schemas = document.components.schemas;
    expect(schemas.SignUpRequest).toMatchObject({
      required: ['email', 'name', 'password'],
      properties: { password: { minLength: 8, maxLength: 72 }, name: { minLength: 1, maxLength: 100 } },
    });
    expect(schemas.CreatePostRequest).toMatchObject({
      required: ['title', 'body', 'authorId'],
      properties: { title: { maxLength: 200 }, published: { type: 'boolean', default: false } },
    });
    expect(document.paths['/posts']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'page', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, default: 1 }) }),
      expect.objectContaining({ name: 'perPage', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 20 }) }),
    ]);
    expect(schemas.Post).toMatchObject({ additionalProperties: false, required: expect.arrayContaining(['id', 'createdAt']) });
    expect(JSON.stringify(document)).not.toContain('#/$defs/');
  });

  it('is built the same every time', () => {
    expect(createOpenApiDocument()).toStrictEqual(document);
  });
});

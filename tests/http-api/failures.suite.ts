import { DomainError } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../support/tokens.js';
import { aPost, alice } from '../support/fixtures.js';
import { allowedMethods, expectError, expectJson, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';
import type { RepositoryMethod } from '../support/faulty-store.js';

/** A request per endpoint, and the repository method it is sure to call. */
const storeCalls: readonly {
  name: string;
  method: RepositoryMethod;
  send(api: HttpApi): Promise<Response>;
}[] = [
  { name: 'GET /posts', method: 'posts.listPublished', send: (api) => api.request('/posts') },
  { name: 'GET /posts/{id}', method: 'posts.findById', send: (api) => api.request('/posts/000000000000000000000001') },
  { name: 'POST /posts', method: 'posts.insert', send: (api) => api.send('POST', '/posts', aPost) },
  {
    name: 'PATCH /posts/{id}',
    method: 'posts.findById',
    send: (api) => api.send('PATCH', '/posts/000000000000000000000001', { title: 'x' }),
  },
  {
    name: 'DELETE /posts/{id}',
    method: 'posts.findById',
    send: (api) => api.request('/posts/000000000000000000000001', { method: 'DELETE' }),
  },
  {
    name: 'DELETE /posts/{id} (delete)',
    method: 'posts.delete',
    send: async (api) => api.request(`/posts/${(await api.createPost()).id}`, { method: 'DELETE' }),
  },
  { name: 'POST /auth/signup', method: 'users.findByEmail', send: (api) => api.send('POST', '/auth/signup', alice) },
  { name: 'POST /auth/signup (insert)', method: 'users.insert', send: (api) => api.send('POST', '/auth/signup', alice) },
  {
    name: 'POST /auth/login',
    method: 'users.findByEmail',
    send: (api) => api.send('POST', '/auth/login', { email: alice.email, password: alice.password }),
  },
  {
    name: 'GET /me',
    method: 'users.findWithSession',
    send: async (api) => api.me(await issueToken('000000000000000000000001', api.clock)),
  },
];

/** Decisions "Every response": routing failures, 500 and 503. */
export function describeRoutingAndFailures(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  describe('routing', () => {
    it.each([
      ['GET', '/'],
      ['GET', '/nope'],
      ['POST', '/nope'],
      ['GET', '/auth'],
      ['POST', '/auth/logoff'],
      ['GET', '/posts/a/b'],
      ['GET', '/me/extra'],
      ['DELETE', '/me/sessions/a/b'],
      ['GET', '/users'],
      ['DELETE', '/auth/signup/x'],
      ['GET', '/POSTS'],
    ])('answers 404 Not found for %s %s', async (method, path) => {
      await expectError(await api().request(path, { method }), 404, 'Not found');
    });

    it.each([
      ['PUT', '/posts/x', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['POST', '/posts/x', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['DELETE', '/posts', ['GET', 'HEAD', 'POST']],
      ['PUT', '/posts', ['GET', 'HEAD', 'POST']],
      ['PATCH', '/posts', ['GET', 'HEAD', 'POST']],
      ['GET', '/auth/login', ['POST']],
      ['GET', '/auth/signup', ['POST']],
      ['DELETE', '/auth/signup', ['POST']],
      ['POST', '/me', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['PUT', '/me', ['DELETE', 'GET', 'HEAD', 'PATCH']],
      ['GET', '/auth/logout', ['POST']],
      ['GET', '/auth/refresh', ['POST']],
      ['PUT', '/auth/password', ['POST']],
      ['POST', '/me/sessions', ['GET', 'HEAD']],
      ['DELETE', '/me/sessions', ['GET', 'HEAD']],
      ['GET', '/me/sessions/x', ['DELETE']],
      ['POST', '/me/account', ['GET', 'HEAD']],
      ['PATCH', '/me/account', ['GET', 'HEAD']],
      ['DELETE', '/me/account', ['GET', 'HEAD']],
    ])('answers 405 Method not allowed for %s %s with Allow: %j', async (method, path, allow) => {
      const res = await api().request(path, { method });
      expect(allowedMethods(res)).toEqual(allow);
      await expectError(res, 405, 'Method not allowed');
    });

    it('answers 405 before looking at the body', async () => {
      const res = await api().request('/posts/x', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' });
      await expectError(res, 405, 'Method not allowed');
    });

    it('answers 405 for an existing post too, and leaves it alone', async () => {
      const post = await api().createPost();
      await expectError(await api().send('PUT', `/posts/${post.id}`, { title: 'Replaced' }), 405, 'Method not allowed');
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
    });

    it('answers 404 (a route-level one) for /posts/ with an empty id, never 400 or 500', async () => {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await api().request('/posts/', { method });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
        expect(['Not found', 'Post not found']).toContain(((await res.json()) as { error: string }).error);
      }
    });

    it('gives every response a request id', async () => {
      const res = await api().request('/posts');
      expect(res.headers.get('x-request-id') ?? '').not.toBe('');
    });
  });

  local.describe('500 Internal server error', () => {
    const secretError = () => new Error('boom secret-hash-$2b$12$xyz');

    it.each(storeCalls)(
      'answers exactly { error: "Internal server error" } when $method throws ($name), and logs it once with the request id',
      async ({ method, send }) => {
        api().faults.fail(method, secretError());
        const res = await send(api());
        const requestId = res.headers.get('x-request-id') ?? '';
        const text = await res.clone().text();
        await expectError(res, 500, 'Internal server error');
        for (const leak of ['boom', 'secret-hash', '$2b$', 'stack', 'at ']) expect(text).not.toContain(leak);

        expect(requestId).not.toBe('');
        const errors = api().logger.at('error');
        expect(errors).toHaveLength(1);
        expect(errors[0]?.fields.requestId).toBe(requestId);
      },
    );

    it('logs the request id the client sent, and echoes it', async () => {
      api().faults.fail('posts.listPublished', secretError());
      const res = await api().request('/posts', { headers: { 'x-request-id': 'client-request-42' } });
      await expectError(res, 500, 'Internal server error');
      expect(res.headers.get('x-request-id')).toBe('client-request-42');
      expect(api().logger.at('error').map((entry) => entry.fields.requestId)).toEqual(['client-request-42']);
    });

    it('logs nothing at error level for the failures the spec names', async () => {
      await api().request('/nope');
      await api().request('/posts/x', { method: 'PUT' });
      await api().request('/posts/missing');
      await api().send('POST', '/posts', {});
      await api().request('/me');
      expect(api().logger.at('error')).toEqual([]);
    });

    it('recovers: the next request after a failure is served normally', async () => {
      api().faults.fail('posts.listPublished', secretError());
      expect((await api().request('/posts')).status).toBe(500);
      api().faults.clear();
      await expectJson(await api().request('/posts'), 200, {
        posts: [],
        pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 },
      });
    });
  });

  local.describe('503 Service unavailable', () => {
    it.each(storeCalls)('answers 503 when $method reports the store unavailable ($name)', async ({ method, send }) => {
      api().faults.fail(method, new DomainError('StoreUnavailable'));
      await expectError(await send(api()), 503, 'Service unavailable');
    });

    it('fails closed when a login limit cannot be counted: 503 and no password checked, then recovers', async () => {
      await api().signUp();
      const verifies = api().hasher.calls.verify;
      api().faults.fail('limits.take', new DomainError('StoreUnavailable'));
      const login = { email: alice.email, password: alice.password };
      await expectError(await api().send('POST', '/auth/login', login), 503, 'Service unavailable');
      expect(api().hasher.calls.verify).toBe(verifies);
      api().faults.clear();
      expect((await api().send('POST', '/auth/login', login)).status).toBe(200);
    });

    it('recovers on its own once the store is back', async () => {
      api().faults.fail('posts.listPublished', new DomainError('StoreUnavailable'));
      api().faults.fail('posts.insert', new DomainError('StoreUnavailable'));
      await expectError(await api().request('/posts'), 503, 'Service unavailable');
      await expectError(await api().send('POST', '/posts', aPost), 503, 'Service unavailable');
      api().faults.clear();
      const post = await api().createPost({ published: true });
      await expectJson(await api().request('/posts'), 200, {
        posts: [post],
        pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 },
      });
    });
  });
}

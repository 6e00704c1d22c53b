import { JSON_API_CONTENT_SECURITY_POLICY, LINK_PAGE_CONTENT_SECURITY_POLICY } from '@inkwell/adapters-http';
import { afterEach, describe, expect, it } from 'vitest';
import { withFaults } from '../support/faulty-store.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import type { StoreFactory } from '../support/stores.js';
import { PASSWORD } from '../support/fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectSecurityHeaders(res: Response, label: string): void {
  const headers = {
    label,
    nosniff: res.headers.get('x-content-type-options'),
    referrer: res.headers.get('referrer-policy'),
    csp: res.headers.get('content-security-policy'),
    frame: res.headers.get('x-frame-options'),
    poweredBy: res.headers.get('x-powered-by'),
    requestId: (res.headers.get('x-request-id') ?? '').length > 0,
  };
  expect(headers).toStrictEqual({
    label,
    nosniff: 'nosniff',
    referrer: 'no-referrer',
    csp: JSON_API_CONTENT_SECURITY_POLICY,
    frame: 'SAMEORIGIN',
    poweredBy: null,
    requestId: true,
  });
}

/** Security headers, CORS, request ids and the per-request log lines, over a real socket. */
export function describeHeadersAndLogs(factory: StoreFactory): void {
  describe(`headers, CORS, request ids and request logs (${factory.label} store)`, () => {
    let t: InProcessServer | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });
    const start = async (env: Record<string, string> = {}) => {
      const { store, faults } = withFaults(await factory.open());
      t = await startInkwell({ in: 'process', store, env: { LOGIN_MAX_FAILURES_PER_EMAIL: '1', ...env } });
      return { server: t, faults };
    };

    it('puts the security headers on every response: 2xx, 4xx, 5xx, routing failures and 204', async () => {
      const { server, faults } = await start();
      const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
      const signup = await server.send('POST', '/auth/signup', { email: 'a@example.com', name: 'A', password: PASSWORD });
      const { post } = (await (await server.send('POST', '/posts', { title: 'T', body: 'B', authorId: 'a' })).json()) as { post: { id: string } };
      await server.send('POST', '/auth/login', { email: 'a@example.com', password: 'wrong' });
      const cases: [string, Response][] = [
        ['201 signup', signup],
        ['200 list', await call('/posts')],
        ['200 health', await call('/health')],
        ['400 validation', await server.send('POST', '/posts', {})],
        ['400 bad JSON', await server.send('POST', '/posts', '{')],
        ['401 me', await call('/me')],
        ['404 post', await call('/posts/nope')],
        ['404 route', await call('/nope')],
        ['405', await call('/posts', { method: 'PUT' })],
        ['413', await server.send('POST', '/posts', 'x'.repeat(1024 * 1024 + 1))],
        ['415', await call('/posts', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })],
        ['429', await server.send('POST', '/auth/login', { email: 'a@example.com', password: 'wrong' })],
        ['204 delete', await call(`/posts/${post.id}`, { method: 'DELETE' })],
      ];
      faults.fail('posts.listPublished', new Error('boom'));
      cases.push(['500', await call('/posts')]);
      expect(cases.map(([label, res]) => `${label}: ${res.status}`)).toEqual([
        '201 signup: 201',
        '200 list: 200',
        '200 health: 200',
        '400 validation: 400',
        '400 bad JSON: 400',
        '401 me: 401',
        '404 post: 404',
        '404 route: 404',
        '405: 405',
        '413: 413',
        '415: 415',
        '429: 429',
        '204 delete: 204',
        '500: 500',
      ]);
      for (const [label, res] of cases) expectSecurityHeaders(res, label);
    });

    it('says Cache-Control: no-store on every answer that carries a token or an account, errors included, no-cache on those about one post, and nothing elsewhere', async () => {
      const { server } = await start();
      const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
      const account = { email: 'a@example.com', name: 'A', password: PASSWORD };
      const signup = await server.send('POST', '/auth/signup', account);
      const { token } = (await signup.clone().json()) as { token: string };
      const { post } = (await (await server.send('POST', '/posts', { title: 'T', body: 'B', authorId: 'a' })).json()) as { post: { id: string } };
      const accountAnswers: [string, Response][] = [
        ['signup 201', signup],
        ['signup 409', await server.send('POST', '/auth/signup', account)],
        ['signup 400', await server.send('POST', '/auth/signup', {})],
        ['signup 415', await call('/auth/signup', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })],
        ['login 200', await server.send('POST', '/auth/login', { email: account.email, password: PASSWORD })],
        ['login 401', await server.send('POST', '/auth/login', { email: account.email, password: 'wrong' })],
        ['login 429', await server.send('POST', '/auth/login', { email: account.email, password: 'wrong' })],
        ['me 200', await call('/me', { headers: { authorization: `Bearer ${token}` } })],
        ['me 401 missing', await call('/me')],
        ['me 401 invalid', await call('/me', { headers: { authorization: 'Bearer nope' } })],
        ['account 200', await call('/me/account', { headers: { authorization: `Bearer ${token}` } })],
        ['account 401 missing', await call('/me/account')],
        ['account 401 invalid', await call('/me/account', { headers: { authorization: 'Bearer nope' } })],
      ];
      // Answers about one post are to be revalidated, not kept blind: no-cache, errors included.
      const postAnswers: [string, Response][] = [
        ['post 200', await call(`/posts/${post.id}`)],
        ['post 404', await call('/posts/nope')],
        ['create 400', await server.send('POST', '/posts', {})],
      ];
      const otherAnswers: [string, Response][] = [
        ['list 200', await call('/posts')],
        ['health 200', await call('/health')],
      ];
      const cacheControl = (answers: [string, Response][]) => answers.map(([label, res]) => `${label}: ${res.headers.get('cache-control')}`);
      expect(cacheControl(accountAnswers)).toEqual(accountAnswers.map(([label]) => `${label}: no-store`));
      expect(cacheControl(postAnswers)).toEqual(postAnswers.map(([label]) => `${label}: no-cache`));
      expect(cacheControl(otherAnswers)).toEqual(otherAnswers.map(([label]) => `${label}: null`));
      expect(accountAnswers.map(([label, res]) => `${label.split(' ')[0]} ${res.status}`)).toEqual(
        accountAnswers.map(([label]) => label.split(' ').slice(0, 2).join(' ')),
      );
    });

    it('serves the pages a mailed link opens with their own policy, no-store and no-referrer, and every other security header', async () => {
      const { server } = await start();
      for (const path of ['/reset-password', '/verify-email']) {
        for (const method of ['GET', 'HEAD']) {
          const res = await fetch(`${server.url}${path}?token=abc`, { method });
          const policy = res.headers.get('content-security-policy') ?? '';
          expect({
            path,
            method,
            status: res.status,
            type: res.headers.get('content-type'),
            cache: res.headers.get('cache-control'),
            referrer: res.headers.get('referrer-policy'),
            nosniff: res.headers.get('x-content-type-options'),
            frame: res.headers.get('x-frame-options'),
            poweredBy: res.headers.get('x-powered-by'),
            policy,
          }).toStrictEqual({
            path,
            method,
            status: 200,
            type: 'text/html; charset=utf-8',
            cache: 'no-store',
            referrer: 'no-referrer',
            nosniff: 'nosniff',
            frame: 'SAMEORIGIN',
            poweredBy: null,
            policy: LINK_PAGE_CONTENT_SECURITY_POLICY,
          });
          // Nothing inline but by hash, nothing from another origin, no framing.
          expect(policy.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'none'", "base-uri 'none'"]));
          expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='/);
          expect(policy).not.toMatch(/unsafe|\*|https?:/);
        }
      }
    });

    describe('CORS', () => {
      it('is off by default: no Access-Control-Allow-Origin, and a preflight is not answered as one', async () => {
        const { server } = await start();
        const read = await fetch(`${server.url}/posts`, { headers: { origin: 'https://app.example.com' } });
        expect(read.status).toBe(200);
        expect(read.headers.get('access-control-allow-origin')).toBeNull();
        const preflight = await fetch(`${server.url}/me`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
        expect(preflight.status).toBe(405);
        expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
        expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
      });

      it('with CORS_ORIGINS answers preflights 204 for those origins with Authorization allowed, and only for them', async () => {
        const { server } = await start({ CORS_ORIGINS: 'https://app.example.com, https://admin.example.com' });
        const preflight = await fetch(`${server.url}/me`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://admin.example.com',
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
        expect(preflight.status).toBe(204);
        expect(await preflight.text()).toBe('');
        expect(preflight.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
        expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key']);
        expect(preflight.headers.get('access-control-allow-methods')?.split(',')).toEqual(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']);
        expect(preflight.headers.get('access-control-max-age')).toBe('600');
        expect(preflight.headers.get('vary')).toMatch(/origin/i);
        expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

        const read = await fetch(`${server.url}/posts`, { headers: { origin: 'https://app.example.com' } });
        expect(read.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
        expect(read.headers.get('access-control-expose-headers')).toBe('X-Request-Id,Retry-After,WWW-Authenticate,ETag,Idempotent-Replayed');
        expect(read.headers.get('vary')).toMatch(/origin/i);

        const signup = await server.send('POST', '/auth/signup', { email: 'c@example.com', name: 'C', password: PASSWORD }, { origin: 'https://app.example.com' });
        const { token } = (await signup.json()) as { token: string };
        for (const path of ['/me', '/me/account']) {
          const mine = await fetch(`${server.url}${path}`, { headers: { origin: 'https://app.example.com', authorization: `Bearer ${token}` } });
          expect({ path, status: mine.status, allowed: mine.headers.get('access-control-allow-origin') }).toEqual({ path, status: 200, allowed: 'https://app.example.com' });
          const asked = await fetch(`${server.url}${path}`, {
            method: 'OPTIONS',
            headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
          });
          expect({ path, status: asked.status, allowed: asked.headers.get('access-control-allow-origin') }).toEqual({ path, status: 204, allowed: 'https://app.example.com' });
        }

        for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.net', 'null']) {
          const foreign = await fetch(`${server.url}/me`, {
            method: 'OPTIONS',
            headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
          });
          expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
          const foreignRead = await fetch(`${server.url}/posts`, { headers: { origin } });
          expect(foreignRead.headers.get('access-control-allow-origin')).toBeNull();
        }
      });
      it('lets a page of an allowed origin send If-Match, If-None-Match and Idempotency-Key, and read the ETag and Idempotent-Replayed', async () => {
        const { server } = await start({ CORS_ORIGINS: 'https://app.example.com' });
        const origin = 'https://app.example.com';
        for (const [method, requested] of [['PATCH', 'content-type, if-match'], ['GET', 'if-none-match'], ['POST', 'content-type, idempotency-key']] as const) {
          const preflight = await fetch(`${server.url}/posts/x`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requested } });
          expect(preflight.status).toBe(204);
          const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
          for (const header of requested.split(', ')) expect(allowed).toContain(header);
        }
        const created = await server.send('POST', '/posts', { title: 'T', body: 'B', authorId: 'a' }, { origin, 'idempotency-key': 'cors' });
        const replayed = await server.send('POST', '/posts', { title: 'T', body: 'B', authorId: 'a' }, { origin, 'idempotency-key': 'cors' });
        const exposed = (replayed.headers.get('access-control-expose-headers') ?? '').split(',');
        expect([created.status, replayed.headers.get('etag'), replayed.headers.get('idempotent-replayed')]).toEqual([201, created.headers.get('etag'), 'true']);
        expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Idempotent-Replayed']));
      });
    });

    describe('request ids', () => {
      it('keeps a sane incoming X-Request-Id and replaces anything else with a UUID', async () => {
        const { server } = await start();
        const idFor = async (incoming: string | undefined) => {
          const res = await fetch(`${server.url}/posts`, { headers: incoming === undefined ? {} : { 'x-request-id': incoming } });
          await res.arrayBuffer();
          return res.headers.get('x-request-id') ?? '';
        };
        for (const sane of ['abc', 'trace-1_2=3', 'A'.repeat(64), '0']) expect(await idFor(sane)).toBe(sane);
        for (const insane of [undefined, '', 'A'.repeat(65), 'has space', 'quote"d', '{"json":1}', 'ünïcode', 'a/b', 'a.b']) {
          expect(await idFor(insane)).toMatch(UUID);
        }
        const [first, second] = [await idFor(undefined), await idFor(undefined)];
        expect(first).not.toBe(second);
      });
    });

    describe('request log lines', () => {
      it('logs one structured line per request: id, method, path without the query, status, duration', async () => {
        const { server } = await start();
        const res = await fetch(`${server.url}/posts?page=1&token=query-secret-value`, { headers: { 'x-request-id': 'trace-42' } });
        await res.arrayBuffer();
        const missing = await fetch(`${server.url}/posts/unknown-id?password=hunter2`);
        await missing.arrayBuffer();
        const lines = server.log.records().filter((record) => record.msg === 'request');
        expect(lines).toEqual([
          {
            level: 30,
            time: expect.any(Number),
            service: 'inkwell',
            msg: 'request',
            requestId: 'trace-42',
            method: 'GET',
            path: '/posts',
            status: 200,
            durationMs: expect.any(Number),
          },
          expect.objectContaining({ requestId: missing.headers.get('x-request-id'), method: 'GET', path: '/posts/unknown-id', status: 404 }),
        ]);
        expect(server.log.lines.join('\n')).not.toMatch(/query-secret-value|hunter2|\?/);
      });

      it('cuts a 10 000-character path in the log line', async () => {
        const { server } = await start();
        await (await fetch(`${server.url}/posts/${'x'.repeat(10_000)}`)).arrayBuffer();
        const [line] = server.log.records().filter((record) => record.msg === 'request');
        expect(String(line?.path).length).toBeLessThanOrEqual(300);
      });

      it('logs an unexpected error once, with its stack and the request id, and the request line with 500', async () => {
        const { server, faults } = await start();
        faults.fail('posts.insert', new Error('boom from the store'));
        const res = await server.send('POST', '/posts', { title: 'T', body: 'B', authorId: 'a' }, { 'x-request-id': 'err-1' });
        expect(res.status).toBe(500);
        const records = server.log.records();
        const errors = records.filter((record) => record.level === 50);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ msg: 'unexpected error', requestId: 'err-1', method: 'POST', path: '/posts' });
        expect((errors[0]?.err as { stack: string }).stack).toMatch(/boom from the store\n\s+at /);
        expect(records.filter((record) => record.msg === 'request')).toEqual([
          expect.objectContaining({ requestId: 'err-1', status: 500 }),
        ]);
      });
    });
  });
}

import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { accessLog } from './access-log.js';
import { requestId } from './request-id.js';
import { JSON_API_CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../response/security-headers.js';
import { securityHeaders } from './security-headers.js';

const DOCS_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'";

/** An app with the middleware in the order `createHttpApp` uses, and routes answering in different ways. */
function appLoggingTo(lines: Record<string, unknown>[]) {
  const record = (fields: object) => void lines.push({ ...fields });
  return new Hono()
    .use(accessLog({ info: record, warn: record, error: record }), requestId, securityHeaders)
    .get('/json', (c) => c.json({ ok: true }))
    .get('/header-first', (c) => {
      c.header('X-Custom', 'yes');
      return c.json({ ok: true }, 201);
    })
    .get('/docs', (c) => c.html('<!doctype html>', 200, { 'Content-Security-Policy': DOCS_POLICY }))
    .get('/own', () => new Response('built by the route', { status: 202, headers: { 'X-Own': 'yes' } }))
    .get('/boom', () => {
      throw new Error('boom');
    });
}

describe('securityHeaders', () => {
  it('gives every answer, errors and unknown paths included, the strict CSP and the other secure headers', async () => {
    const app = appLoggingTo([]);
    for (const path of ['/json', '/header-first', '/own', '/nope', '/boom']) {
      const res = await app.request(path);
      expect(res.headers.get('content-security-policy')).toBe(JSON_API_CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    }
    expect(JSON_API_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('keeps the CSP a route sets itself (the /docs hook), and still adds the rest', async () => {
    const res = await appLoggingTo([]).request('/docs');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the headers a route sets', async () => {
    const res = await appLoggingTo([]).request('/header-first');
    expect(res.status).toBe(201);
    expect(res.headers.get('x-custom')).toBe('yes');
  });

  it('puts on an answer exactly SECURITY_HEADERS, which the answers written outside the app carry', async () => {
    const res = await appLoggingTo([]).request('/json');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
    const own = ['content-type', 'x-request-id'];
    expect([...res.headers.keys()].filter((name) => !own.includes(name)).sort()).toStrictEqual(Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()).sort());
  });

  it('sets the headers and values Hono’s own secureHeaders sets, with the JSON API’s CSP', async () => {
    const hono = await new Hono()
      .use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }))
      .get('/', (c) => c.body(null, 204))
      .request('/');
    expect(Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]))).toStrictEqual(Object.fromEntries(hono.headers));
  });
});

describe('requestId', () => {
  it('keeps a sane X-Request-Id, replaces any other with a UUID, and answers with it', async () => {
    const app = appLoggingTo([]);
    expect((await app.request('/json', { headers: { 'x-request-id': 'trace-42_a=b' } })).headers.get('x-request-id')).toBe('trace-42_a=b');
    for (const sent of ['', 'x'.repeat(65), 'a b', 'id;rm', '../x', 'a.b']) {
      const res = await app.request('/json', { headers: { 'x-request-id': sent } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('answers every request with an id, unknown paths and errors included', async () => {
    const app = appLoggingTo([]);
    for (const path of ['/nope', '/boom']) expect((await app.request(path)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('accessLog', () => {
  it('logs one line per answered request with its id, method, path without the query, status and duration', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const res = await app.request('/json?token=secret', { headers: { 'x-request-id': 'r-1' } });
    await app.request(`/${'p'.repeat(300)}`);
    expect(res.status).toBe(200);
    expect(lines[0]).toStrictEqual({ requestId: 'r-1', method: 'GET', path: '/json', status: 200, durationMs: expect.any(Number) });
    expect(lines[1]).toMatchObject({ status: 404, path: `/${'p'.repeat(255)}…` });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});

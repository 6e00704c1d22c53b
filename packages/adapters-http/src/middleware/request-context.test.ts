import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../response/json-response.js';
import { JSON_API_CONTENT_SECURITY_POLICY } from '../response/security-headers.js';
import { requestContext } from './request-context.js';

const DOCS_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'";

function appLoggingTo(lines: Record<string, unknown>[]) {
  const record = (fields: object) => void lines.push({ ...fields });
  return new Hono()
    .use(requestContext({ info: record, warn: record, error: record }))
    .get('/fast', (c) => jsonResponse(c, { ok: true }, 200))
    .get('/json', (c) => c.json({ ok: true }))
    .get('/docs', (c) => c.html('<!doctype html>', 200, { 'Content-Security-Policy': DOCS_POLICY }))
    .get('/powered', (c) => c.json({ ok: true }, 200, { 'X-Powered-By': 'Express' }))
    .get('/boom', () => {
      throw new Error('boom');
    });
}

describe('requestContext', () => {
  it('gives every answer, built on the fast path or not, the strict CSP and the other secure headers', async () => {
    const app = appLoggingTo([]);
    for (const path of ['/fast', '/json', '/nope']) {
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

  it('removes X-Powered-By', async () => {
    expect((await appLoggingTo([]).request('/powered')).headers.get('x-powered-by')).toBeNull();
  });

  it('keeps a sane X-Request-Id, replaces any other with a UUID, and answers with it', async () => {
    const app = appLoggingTo([]);
    expect((await app.request('/fast', { headers: { 'x-request-id': 'trace-42.a_b' } })).headers.get('x-request-id')).toBe('trace-42.a_b');
    for (const sent of ['', 'x'.repeat(65), 'a b', 'id;rm', '../x']) {
      const res = await app.request('/json', { headers: { 'x-request-id': sent } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('logs one line per answered request with its id, method, path without the query, status and duration', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const res = await app.request('/fast?token=secret', { headers: { 'x-request-id': 'r-1' } });
    await app.request(`/${'p'.repeat(300)}`);
    expect(lines[0]).toStrictEqual({ requestId: 'r-1', method: 'GET', path: '/fast', status: 200, durationMs: expect.any(Number) });
    expect(res.status).toBe(200);
    expect(lines[1]).toMatchObject({ status: 404, path: `/${'p'.repeat(255)}…` });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});

import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { JSON_API_CONTENT_SECURITY_POLICY, securityHeaders } from './security-headers.js';

const DOCS_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'";

const app = new Hono()
  .use(securityHeaders())
  .get('/json', (c) => c.json({ ok: true }))
  .get('/docs', (c) => c.html('<!doctype html>', 200, { 'Content-Security-Policy': DOCS_POLICY }))
  .get('/powered', (c) => c.json({ ok: true }, 200, { 'X-Powered-By': 'Express' }));

describe('securityHeaders', () => {
  it('gives a JSON response the strict CSP and the other secure headers', async () => {
    const res = await app.request('/json');
    expect(res.headers.get('content-security-policy')).toBe(JSON_API_CONTENT_SECURITY_POLICY);
    expect(JSON_API_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });

  it('keeps the CSP a route sets itself (the /docs hook), and still adds the rest', async () => {
    const res = await app.request('/docs');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('removes X-Powered-By', async () => {
    expect((await app.request('/powered')).headers.get('x-powered-by')).toBeNull();
  });
});

import { createHash } from 'node:crypto';
import { ConfirmPasswordResetSchema, createInMemoryOutbox, DomainError, parseInput } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { testHttpApp } from '../test-support/test-app.js';
import { LINK_PAGE_CONTENT_SECURITY_POLICY, LINK_PAGE_CSS, NEW_PASSWORD_RULES, RESET_PASSWORD_HTML, VERIFY_EMAIL_HTML } from './link-pages.js';
import { LINK_PAGE_SCRIPT } from './link-page-script.js';

const PAGES = [
  ['/reset-password', RESET_PASSWORD_HTML],
  ['/verify-email', VERIFY_EMAIL_HTML],
] as const;

const mailOn = () => testHttpApp({ outbox: createInMemoryOutbox() });
const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Record<string, string> {
  return Object.fromEntries(policy.split(';').map((part) => part.trim().split(/\s+(.*)/s).slice(0, 2) as [string, string]));
}

describe('GET /reset-password and GET /verify-email, the pages a mailed link opens', () => {
  it.each(PAGES)('%s is 200 HTML that no cache keeps, under its own policy, with the security headers of every answer', async (path, html) => {
    const res = await mailOn().request(`${path}?token=abc`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(LINK_PAGE_CONTENT_SECURITY_POLICY);
    expect(await res.text()).toBe(html);
  });

  it('allows exactly the inline script and stylesheet the pages carry, by hash, and nothing from elsewhere', () => {
    expect(directives(LINK_PAGE_CONTENT_SECURITY_POLICY)).toStrictEqual({
      'default-src': "'none'",
      'script-src': hash(LINK_PAGE_SCRIPT),
      'style-src': hash(LINK_PAGE_CSS),
      'img-src': 'data:',
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(LINK_PAGE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:/);
    for (const [, html] of PAGES) {
      // One script and one stylesheet, each exactly the hashed text; no handler or style attribute, no URL of anywhere.
      expect([...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual([LINK_PAGE_SCRIPT]);
      expect([...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1])).toEqual([LINK_PAGE_CSS]);
      expect(html.match(/<script|<style/g)).toHaveLength(2);
      expect(html).not.toMatch(/\son[a-z]+=|\sstyle=|\ssrc=|https?:|\/\/[a-z]/i);
      expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['data:,']);
    }
  });

  it('weigh under 16 KB each, script and styles included (docs/api.md says so)', () => {
    for (const [, html] of PAGES) expect(Buffer.byteLength(html)).toBeLessThan(16 * 1024);
  });

  it('answers the same bytes whatever the query: nothing of the address reaches the page', async () => {
    const app = mailOn();
    for (const [path, html] of PAGES) {
      for (const query of ['', '?token=', '?token=%3Cscript%3Ealert(1)%3C%2Fscript%3E', '?token=%22%27%3E%3Cimg', '?token=a&token=b', `?token=${'x'.repeat(8000)}`, '?token=%E2%80%AE%F0%9F%94%91', '?x=%ZZ']) {
        const res = await app.request(`${path}${query}`);
        expect({ query, status: res.status, same: (await res.text()) === html }).toStrictEqual({ query, status: 200, same: true });
      }
    }
  });

  it('are answered to HEAD too, without a body, and to other methods with 405 and Allow', async () => {
    const app = mailOn();
    for (const [path] of PAGES) {
      const head = await app.request(path, { method: 'HEAD' });
      expect({ status: head.status, type: head.headers.get('content-type'), body: await head.text() }).toStrictEqual({ status: 200, type: 'text/html; charset=utf-8', body: '' });
      const post = await app.request(path, { method: 'POST' });
      expect({ status: post.status, allow: post.headers.get('allow'), body: await post.json() }).toStrictEqual({ status: 405, allow: 'GET, HEAD', body: { error: 'Method not allowed' } });
    }
  });

  it('are unknown paths with mail off (no outbox): 404 Not found, as the mail endpoints are', async () => {
    const off = testHttpApp();
    for (const [path] of PAGES) {
      const res = await off.request(`${path}?token=abc`);
      expect({ path, status: res.status, body: await res.json() }).toStrictEqual({ path, status: 404, body: { error: 'Not found' } });
    }
  });

  it('stay with the API docs off, and stay out of the OpenAPI document', async () => {
    const app = testHttpApp({ outbox: createInMemoryOutbox(), apiDocs: false });
    for (const [path] of PAGES) expect((await app.request(path)).status).toBe(200);
    const document = (await (await mailOn().request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/auth/password-reset/confirm');
    expect(Object.keys(document.paths).filter((p) => p === '/reset-password' || p === '/verify-email')).toEqual([]);
  });

  it("shows the new password's rules as the API checks them: 8 to 72 characters, at most 72 bytes in UTF-8", () => {
    expect(RESET_PASSWORD_HTML).toContain(`<p id="new-password-rules" class="rules">${NEW_PASSWORD_RULES}</p>`);
    const issues = (newPassword: string) => {
      try {
        parseInput(ConfirmPasswordResetSchema, { token: 't', newPassword });
        return [];
      } catch (error) {
        return error instanceof DomainError ? (error.issues ?? []).map((issue) => issue.message) : [String(error)];
      }
    };
    expect(NEW_PASSWORD_RULES).toMatch(/^8 to 72 characters, and at most 72 bytes: an accented letter takes 2 bytes, most emoji take 4\.$/);
    expect(issues('x'.repeat(7))).toEqual(['must be at least 8 characters']);
    expect(issues('x'.repeat(8))).toEqual([]);
    expect(issues('x'.repeat(72))).toEqual([]);
    expect(issues('x'.repeat(73))).toEqual(['must be at most 72 characters', 'must be at most 72 bytes in UTF-8']);
    expect(issues('é'.repeat(36))).toEqual([]);
    expect(issues(`${'é'.repeat(36)}x`)).toEqual(['must be at most 72 bytes in UTF-8']);
    expect(issues('🔑'.repeat(18))).toEqual([]);
    expect(issues('🔑'.repeat(19))).toEqual(['must be at most 72 bytes in UTF-8']);
  });
});

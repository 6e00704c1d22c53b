import { isOffered, type UseCaseDeps } from '@inkwell/domain';
import { Hono } from 'hono';
import { LINK_PAGE_CONTENT_SECURITY_POLICY, RESET_PASSWORD_HTML, VERIFY_EMAIL_HTML } from './link-pages.js';

/**
 * What every answer of a page carries: HTML, kept by no cache (the address it was opened at held
 * a token), and the pages' own policy, which `securityHeaders()` keeps (it never overwrites a
 * header a handler set). `Referrer-Policy: no-referrer` and the other security headers come from
 * `securityHeaders()`, as on every answer.
 */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': LINK_PAGE_CONTENT_SECURITY_POLICY,
} as const;

/** The paths of the pages, as the links in mail name them (`{APP_URL}/reset-password?token=…`). */
export const LINK_PAGE_PATHS = ['/reset-password', '/verify-email'] as const;

/**
 * `GET /reset-password` and `GET /verify-email`, the pages the links in mail name, for a person
 * to finish there when `APP_URL` points at inkwell. Each is one static answer, the same bytes
 * whatever the query: opening a page uses nothing, and its script sends the token only when the
 * person acts. A page is served where the use case it leads to is offered (mail on); otherwise its
 * path is unknown, 404 like any other. Not part of the API (`AppType`, the OpenAPI document):
 * these are pages for people, like `/docs`.
 */
export function linkPageRoutes(deps: Pick<UseCaseDeps, 'postAccess' | 'outbox' | 'mailer'>) {
  const app = new Hono();
  const [resetPassword, verifyEmail] = LINK_PAGE_PATHS;
  if (isOffered('confirmPasswordReset', deps)) app.get(resetPassword, (c) => c.body(RESET_PASSWORD_HTML, 200, PAGE_HEADERS));
  if (isOffered('verifyEmail', deps)) app.get(verifyEmail, (c) => c.body(VERIFY_EMAIL_HTML, 200, PAGE_HEADERS));
  return app;
}

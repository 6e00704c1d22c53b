import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { applyResponseHeaders, isBuiltWithResponseHeaders, setFixedResponseHeaders } from './json-response.js';

/**
 * The Content-Security-Policy of a JSON API: a response may load nothing and be framed by
 * nobody, so a JSON body a browser is tricked into rendering cannot run anything.
 */
export const JSON_API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * hono's secure headers on every response (`X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, HSTS, `X-Frame-Options`, no `X-Powered-By`, …) and the strict
 * CSP above.
 *
 * Hook for pages that are not JSON (the `/docs` Swagger UI page): a route that sets its own
 * `Content-Security-Policy` header (for instance `default-src 'none'; script-src 'self';
 * style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'`) keeps
 * it, because headers a handler set are never overwritten here. Every other header still applies.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    setFixedResponseHeaders(c, SECURE_HEADERS);
    await next();
    // jsonResponse answers already carry them (and never X-Powered-By); anything else is completed here.
    if (isBuiltWithResponseHeaders(c.res)) return;
    applyResponseHeaders(c);
    c.res.headers.delete('X-Powered-By');
  };
}

/**
 * Every secure header with its value, taken once from hono's middleware: run on every response
 * after the route, it would turn the response's headers into a WHATWG Headers object each time
 * (see json-response.ts). Every response's header object starts as a copy of this one record,
 * and the answers Node's parser refuses carry it too (node/client-error-response.ts).
 */
export const SECURE_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    await new Hono()
      .use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] }, overwrite: false }))
      .get('/', (c) => c.body(null, 204))
      .request('/')
  ).headers,
);

import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy of a JSON API: a response may load nothing and be framed by
 * nobody, so a JSON body a browser is tricked into rendering cannot run anything.
 */
export const JSON_API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Hono's `secureHeaders` (`X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
 * HSTS, …) with the JSON API's strict CSP, on every answer, errors included. A route that sets
 * its own `Content-Security-Policy` (the /docs page) keeps it. `X-Powered-By` never leaves.
 */
export const securityHeaders: MiddlewareHandler = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  overwrite: false,
});

/**
 * The headers `securityHeaders` puts on an answer, as one record, for the answers written
 * outside the app (to a request Node's parser refused): asked of the middleware itself, so both
 * kinds of answer always carry the same set.
 */
export async function securityHeaderRecord(): Promise<Readonly<Record<string, string>>> {
  const answer = await new Hono()
    .use(securityHeaders)
    .get('/', (c) => c.body(null, 204))
    .request('/');
  return Object.freeze(Object.fromEntries(answer.headers));
}

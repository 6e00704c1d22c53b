import type { MiddlewareHandler } from 'hono';

/**
 * The Content-Security-Policy of a JSON API: a response may load nothing and be framed by
 * nobody, so a JSON body a browser is tricked into rendering cannot run anything.
 */
export const JSON_API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * What every answer carries for browsers: the headers and values of Hono's `secureHeaders` with
 * its defaults (`X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, HSTS, the
 * cross-origin policies, …), and the JSON API's strict CSP. Also written on the answers Node's
 * parser refuses before the app sees the request (node/client-error-response.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': JSON_API_CONTENT_SECURITY_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
});

const entries = Object.entries(SECURITY_HEADERS);

/**
 * Gives every answer made with the context (`c.json`, `c.body`, the error and not-found
 * handlers, a CORS preflight) `SECURITY_HEADERS`, set before the route runs as Hono's `requestId`
 * sets its header: a route that sets one of them itself (the /docs page's CSP) replaces it.
 * Hono's own `secureHeaders` sets the same headers after the route, asking the finished answer
 * about each one first, which cost more than the rest of a small GET.
 */
export const securityHeaders: MiddlewareHandler = (c, next) => {
  for (const [name, value] of entries) c.header(name, value);
  return next();
};

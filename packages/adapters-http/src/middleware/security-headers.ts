import type { MiddlewareHandler } from 'hono';
import { SECURITY_HEADERS } from '../response/security-headers.js';

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

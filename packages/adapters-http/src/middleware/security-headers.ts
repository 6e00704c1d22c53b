import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Hono's `secureHeaders` with its defaults and the JSON API's strict CSP, which gives every
 * answer `SECURITY_HEADERS` once the route has answered, however the answer was built (`c.json`,
 * the error and not-found handlers, a CORS preflight, a route's own `new Response`). A header the
 * route set itself (the /docs page's CSP) is kept.
 */
export const securityHeaders: MiddlewareHandler = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  overwrite: false,
});

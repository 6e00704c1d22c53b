import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The Content-Security-Policy of a JSON API: a response may load nothing and be framed by
 * nobody, so a JSON body a browser is tricked into rendering cannot run anything.
 */
export const JSON_API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Every secure header with its value, taken once from hono's middleware: run on every response
 * after the route, it would turn the response's headers into a WHATWG Headers object each time
 * (see json-response.ts). Every response's header object starts as a copy of this one record
 * (middleware/request-context.ts), and the answers Node's parser refuses carry it too
 * (node/client-error-response.ts).
 */
export const SECURE_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    await new Hono()
      .use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] }, overwrite: false }))
      .get('/', (c) => c.body(null, 204))
      .request('/')
  ).headers,
);

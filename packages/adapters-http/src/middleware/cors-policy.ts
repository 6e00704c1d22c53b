import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * CORS for the configured origins, or null when none are (CORS off: browsers on other origins
 * cannot read responses). Preflights are answered 204 with `Authorization` and
 * `Content-Type` allowed; `X-Request-Id`, `Retry-After` and `WWW-Authenticate` are readable by the page. No
 * credentials mode: the API authenticates by bearer token, never by cookie.
 */
export function corsPolicy(origins: readonly string[] | undefined): MiddlewareHandler | null {
  if (!origins || origins.length === 0) return null;
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
}

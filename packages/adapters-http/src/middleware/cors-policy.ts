import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * CORS for the configured origins, or null when none are (CORS off: browsers on other origins
 * cannot read responses). Preflights are answered 204 with `Authorization`, `Content-Type`,
 * `If-Match`, `If-None-Match` and `Idempotency-Key` allowed; `X-Request-Id`, `Retry-After`,
 * `WWW-Authenticate`, `ETag` and `Idempotent-Replayed` are readable by the page. No credentials
 * mode: the API authenticates by bearer token, never by cookie.
 */
export function corsPolicy(origins: readonly string[] | undefined): MiddlewareHandler | null {
  if (!origins || origins.length === 0) return null;
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'WWW-Authenticate', 'ETag', 'Idempotent-Replayed'],
    maxAge: 600,
  });
}

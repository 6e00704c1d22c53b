import type { MiddlewareHandler } from 'hono';

/**
 * For answers that carry a token, an account or someone's drafts, errors included: no shared
 * cache (a proxy, a CDN) may keep them. Set before the route runs, so every answer says it.
 */
export const noStore: MiddlewareHandler = (c, next) => {
  c.header('Cache-Control', 'no-store');
  return next();
};

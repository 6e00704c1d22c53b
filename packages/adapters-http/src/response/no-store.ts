import type { MiddlewareHandler } from 'hono';
import { setResponseHeader } from './json-response.js';

/**
 * For answers that carry a token, an account or someone's drafts, errors included: no shared
 * cache (a proxy, a CDN) may keep them. Set before the route runs, so every answer says it.
 */
export const noStore: MiddlewareHandler = (c, next) => {
  setResponseHeader(c, 'Cache-Control', 'no-store');
  return next();
};

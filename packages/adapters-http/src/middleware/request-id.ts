import type { MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id: the client's `X-Request-Id` when sane, otherwise a new UUID. */
    requestId: string;
  }
}

/** An incoming id is kept only when it is short and plain, so it cannot smuggle anything into a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id, in `c.var.requestId` and the answer's `X-Request-Id`: the client's
 * or proxy's own when it is at most 64 characters of `[A-Za-z0-9._-]` (so ids can be followed
 * across services), a new UUID otherwise. Hono's `requestId` middleware, with this rule for
 * what is kept.
 */
export const requestId: MiddlewareHandler = (c, next) => {
  const sent = c.req.header('x-request-id');
  const id = sent !== undefined && SANE_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
  c.set('requestId', id);
  c.header('X-Request-Id', id);
  return next();
};

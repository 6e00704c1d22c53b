import type { MiddlewareHandler } from 'hono';
import { setResponseHeader } from './json-response.js';
import { requestHeader } from './node/node-request.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id: the client's `X-Request-Id` when sane, otherwise a new UUID. */
    requestId: string;
  }
}

/** An incoming id is kept only when it is short and plain, so it cannot smuggle anything into a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives each request an id, returned in `X-Request-Id` and written on its log lines. A
 * client's or proxy's `X-Request-Id` is kept when it is at most 64 characters of
 * `[A-Za-z0-9._-]` (so ids can be followed across services); anything else is replaced.
 */
export function requestIdentity(): MiddlewareHandler {
  // Not async, no c.req.header() and no c.header(): a plain function that hands on next()'s
  // promise saves a promise per request, the incoming header is read without building a
  // Headers object (node-request.ts), and the outgoing one is gathered for the fast path
  // (json-response.ts).
  return (c, next) => {
    const incoming = requestHeader(c, 'x-request-id');
    const id = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', id);
    setResponseHeader(c, 'X-Request-Id', id);
    return next();
  };
}

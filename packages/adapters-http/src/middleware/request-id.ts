import type { MiddlewareHandler } from 'hono';
import { requestId as honoRequestId } from 'hono/request-id';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id: the client's `X-Request-Id` when sane, otherwise a new UUID. */
    requestId: string;
  }
}

/**
 * Hono's `requestId`: every request gets an id, in `c.var.requestId` and the answer's
 * `X-Request-Id`: the client's or proxy's own when it is at most 64 characters of
 * `[A-Za-z0-9_=-]` (so ids can be followed across services, and none can smuggle anything into a
 * log line), a new UUID otherwise.
 */
export const requestId: MiddlewareHandler = honoRequestId({ limitLength: 64 });

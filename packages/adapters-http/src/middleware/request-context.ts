import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { clientWentAway, requestHeader } from '../node/node-request.js';
import { applyResponseHeaders, isBuiltWithResponseHeaders, setFixedResponseHeaders, setResponseHeader } from '../response/json-response.js';
import { SECURE_HEADERS } from '../response/security-headers.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id: the client's `X-Request-Id` when sane, otherwise a new UUID. */
    requestId: string;
  }
}

/** An incoming id is kept only when it is short and plain, so it cannot smuggle anything into a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Paths longer than this are cut in the log line: a hostile 10 000-character path must not flood the logs. */
const MAX_LOGGED_PATH = 256;

/**
 * What every request gets, around everything else, in one layer (each async layer costs every
 * request a promise and a closure):
 *
 * - an id, returned in `X-Request-Id` and written on its log lines. A client's or proxy's
 *   `X-Request-Id` is kept when it is at most 64 characters of `[A-Za-z0-9._-]` (so ids can be
 *   followed across services); anything else is replaced by a UUID;
 * - hono's secure headers (`X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
 *   HSTS, …) and the JSON API's strict CSP on every response, errors included. A route that
 *   sets its own `Content-Security-Policy` (the /docs page) keeps it: headers a handler set are
 *   never overwritten. `X-Powered-By` never leaves;
 * - one structured log line once it is answered: id, method, path (never the query string,
 *   which is where secrets leak into URLs), status and duration in milliseconds. Headers and
 *   bodies are never logged.
 */
export function requestContext(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const incoming = requestHeader(c, 'x-request-id');
    const requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', requestId);
    // Gathered for the fast path (json-response.ts): answers built there carry them already.
    setFixedResponseHeaders(c, SECURE_HEADERS);
    setResponseHeader(c, 'X-Request-Id', requestId);

    await next();

    if (!isBuiltWithResponseHeaders(c.res)) {
      applyResponseHeaders(c);
      c.res.headers.delete('X-Powered-By');
    }
    const path = c.req.path;
    logger.info(
      {
        requestId,
        method: c.req.method,
        path: path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        // The client hung up (or was cut at a timeout) before the answer: it never saw `status`.
        ...(clientWentAway(c) ? { aborted: true } : {}),
      },
      'request',
    );
  };
}

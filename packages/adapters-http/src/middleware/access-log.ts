import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { clientWentAway } from '../request/request-facts.js';
import { loggedPath, type RequestsInFlight } from './requests-in-flight.js';

/**
 * One structured line per answered request: its id, method, path (never the query string,
 * which is where secrets leak into URLs), status and duration in milliseconds, and `aborted`
 * when the client hung up before the answer. Headers and bodies are never logged. Around every
 * request from its start to its answer, it also keeps it in `inFlight` meanwhile, when given.
 */
export function accessLog(logger: Logger, inFlight?: RequestsInFlight): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    inFlight?.add(c);
    try {
      await next();
    } finally {
      inFlight?.delete(c);
    }
    logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        // The client hung up (or was cut at a timeout) before the answer: it never saw `status`.
        ...(clientWentAway(c) ? { aborted: true } : {}),
      },
      'request',
    );
  };
}

import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { clientWentAway } from '../request/request-facts.js';

/** Paths longer than this are cut in the log line: a hostile 10 000-character path must not flood the logs. */
const MAX_LOGGED_PATH = 256;

/**
 * One structured line per answered request: its id, method, path (never the query string,
 * which is where secrets leak into URLs), status and duration in milliseconds, and `aborted`
 * when the client hung up before the answer. Headers and bodies are never logged.
 */
export function accessLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    logger.info(
      {
        requestId: c.get('requestId'),
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

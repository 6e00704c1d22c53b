// The access line the two floors (node-http.ts, hono.ts) write on every request, so that they do
// the work inkwell does at LOG_LEVEL=info: one pino line with inkwell's fields (requestId, method,
// path, status, durationMs), written the cheapest way pino's users are told to, on its documented
// fast destination (`pino.destination({ minLength: 4096, sync: false })`: lines wait in a buffer
// and go out in 4 KiB writes). The bench sends the servers' stdout to /dev/null, as inkwell's.
import { pino } from 'pino';

const logger = pino(pino.destination({ minLength: 4096, sync: false }));

/** One access line: the request's id, method and path, the answer's status, and the milliseconds since `started` (performance.now()). */
export function accessLine(requestId: string, method: string, path: string, status: number, started: number): void {
  logger.info({ requestId, method, path, status, durationMs: Math.round((performance.now() - started) * 100) / 100 }, 'request');
}

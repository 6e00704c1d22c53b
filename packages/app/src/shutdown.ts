import type { Logger } from 'pino';
import type { RunningServer } from './server.js';

/**
 * Stops `server` on SIGTERM or SIGINT without losing a request: first the drain, for
 * `drainSeconds` (readiness answers 503 `stopping` so load balancers take the process out, while
 * it keeps serving, every answer with `Connection: close` so clients move on); then it stops
 * accepting connections, lets the requests in flight finish (10 s at most), closes the store and
 * exits 0 (1 if closing failed). Idempotent, and left installed: a cluster worker can get a
 * signal from its primary and from the terminal's process group, and the second must not cut
 * the drain short.
 */
export function stopOnSignals(server: RunningServer, drainSeconds: number, logger: Logger): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainSeconds }, `shutting down: draining for ${drainSeconds} s, then finishing in-flight requests`);
    server.drain();
    setTimeout(() => {
      logger.info('drained: no new connections; finishing in-flight requests');
      server.close().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    }, drainSeconds * 1000);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

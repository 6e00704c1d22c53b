import type { HttpDeps } from '../http-deps.js';
import { json, publicOperation, ref } from '../openapi/responses.js';
import { RouteTable } from './route-table.js';

/**
 * How long readiness waits for the store's ping before it counts the store as not answering:
 * `GET /health` answers within a second whatever the database does (a database that stopped
 * answering would otherwise hold it for the driver's 2 s selection or 10 s socket timeout).
 */
export const READINESS_PING_TIMEOUT_MS = 800;

/**
 * `GET /health` is readiness, for load balancers and readiness probes: 200 while the store answers
 * a ping and the process is not stopping, 503 (`unavailable` or `stopping`) otherwise.
 * `GET /health/live` is liveness, for restart probes: 200 whenever the process can run a request;
 * it never touches the store, so a database outage restarts nothing.
 */
export const healthRoutes = RouteTable.empty()
  .add({
    method: 'get',
    path: '/health',
    operation: () => ({
      operationId: 'getHealth',
      summary: 'Readiness',
      description:
        'Whether this process should get traffic: its database answers a ping and it is not stopping. Answers within a second ' +
        'whatever the database does. For load balancers and readiness probes; use `GET /health/live` to decide on restarts.',
      tags: ['Operations'],
      ...publicOperation,
      responses: {
        '200': json('The database answers and the process is not stopping.', ref('Health'), { example: { status: 'ok' } }),
        '503': json('The database does not answer (`unavailable`), or the process is stopping (`stopping`).', ref('Health'), {
          example: { status: 'unavailable' },
        }),
      },
    }),
    handler: (deps) => {
      const storeAnswers = boundedPing(deps.storeIsUp, READINESS_PING_TIMEOUT_MS);
      return async (c) => {
        if (deps.stopping?.() === true) return c.json({ status: 'stopping' as const }, 503);
        return (await storeAnswers()) ? c.json({ status: 'ok' as const }, 200) : c.json({ status: 'unavailable' as const }, 503);
      };
    },
  })
  .add({
    method: 'get',
    path: '/health/live',
    operation: () => ({
      operationId: 'getLiveness',
      summary: 'Liveness',
      description:
        'Whether the process can run a request, whatever its database does: restart the process only when this fails. ' +
        'It never touches the database.',
      tags: ['Operations'],
      ...publicOperation,
      responses: { '200': json('The process runs requests.', ref('Liveness'), { example: { status: 'ok' } }) },
    }),
    handler: () => (c) => c.json({ status: 'ok' as const }, 200),
  });

/**
 * `ping`, answering false past `timeoutMs` or on a failure. One ping runs at a time: checks that
 * come while one is under way wait for it (each for `timeoutMs` at most), so a database that
 * stopped answering holds one ping, not one per check.
 */
function boundedPing(ping: HttpDeps['storeIsUp'], timeoutMs: number): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  return () => {
    const current = (running ??= ping()
      .catch(() => false)
      .finally(() => {
        running = undefined;
      }));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, false);
    });
    return Promise.race([current, late]).finally(() => clearTimeout(timer));
  };
}

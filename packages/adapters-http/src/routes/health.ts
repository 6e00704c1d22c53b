import { json, publicOperation, ref } from '../openapi/responses.js';
import { RouteTable } from './route-table.js';

/**
 * `GET /health` is readiness, for load balancers and readiness probes: 200 while the store can be
 * reached and the process is not stopping, 503 (`unavailable` or `stopping`) otherwise, answered at
 * once from the store's state as last seen (`storeReachable`): a database that answers slowly is
 * reachable, and no probe waits for it. `GET /health/live` is liveness, for restart probes: 200
 * whenever the process can run a request; it never touches the store, so a database outage
 * restarts nothing.
 */
export const healthRoutes = RouteTable.empty()
  .add({
    method: 'get',
    path: '/health',
    operation: () => ({
      operationId: 'getHealth',
      summary: 'Readiness',
      description:
        'Whether this process should get traffic: it can reach its database and it is not stopping. Answered at once, from what the ' +
        'process last saw of its database (a ping every second, and its requests): a database that answers slowly can be reached. ' +
        'For load balancers and readiness probes; use `GET /health/live` to decide on restarts.',
      tags: ['Operations'],
      ...publicOperation,
      responses: {
        '200': json('The database can be reached and the process is not stopping.', ref('Health'), { example: { status: 'ok' } }),
        '503': json(
          'The database cannot be reached: refused, reset, or no answer for as long as a request waits (`unavailable`); or the process is stopping (`stopping`).',
          ref('Health'),
          { example: { status: 'unavailable' } },
        ),
      },
    }),
    handler: (deps) => (c) => {
      if (deps.stopping?.() === true) return c.json({ status: 'stopping' as const }, 503);
      return deps.storeReachable() ? c.json({ status: 'ok' as const }, 200) : c.json({ status: 'unavailable' as const }, 503);
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

import { json, publicOperation, ref } from '../openapi/responses.js';
import { RouteTable } from './route-table.js';

/** `GET /health` for load balancers: 200 while the store answers a ping, 503 while it does not. */
export const healthRoutes = RouteTable.empty().add({
  method: 'get',
  path: '/health',
  operation: () => ({
    operationId: 'getHealth',
    summary: 'Health check',
    description: 'Whether the server and its database answer.',
    tags: ['Operations'],
    ...publicOperation,
    responses: {
      '200': json('The database answers.', ref('Health'), { example: { status: 'ok' } }),
      '503': json('The database does not answer.', ref('Health'), { example: { status: 'unavailable' } }),
    },
  }),
  handler: (deps) => async (c) =>
    (await deps.storeIsUp().catch(() => false)) ? c.json({ status: 'ok' as const }, 200) : c.json({ status: 'unavailable' as const }, 503),
});

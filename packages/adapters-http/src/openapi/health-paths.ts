import { ref } from './components.js';
import { json, publicOperation } from './responses.js';
import type { OpenApiPaths } from './types.js';

/** `GET /health`, for load balancers and monitoring. */
export function healthPaths(): OpenApiPaths {
  return {
    '/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Health check',
        description: 'Whether the server and its database answer.',
        tags: ['Operations'],
        ...publicOperation,
        responses: {
          '200': json('The database answers.', ref('Health'), { example: { status: 'ok' } }),
          '503': json('The database does not answer.', ref('Health'), { example: { status: 'unavailable' } }),
        },
      },
    },
  };
}

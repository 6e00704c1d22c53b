import { Hono } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { jsonResponse } from '../response/json-response.js';

/** `GET /health` for load balancers: 200 while the store answers a ping, 503 while it does not. */
export function healthRoutes(deps: HttpDeps) {
  return new Hono().get('/health', async (c) =>
    (await deps.storeIsUp().catch(() => false))
      ? jsonResponse(c, { status: 'ok' as const }, 200)
      : jsonResponse(c, { status: 'unavailable' as const }, 503),
  );
}

import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { accountsRoutes } from './accounts-routes.js';
import { healthRoutes } from './health-routes.js';
import type { HttpDeps } from './http-deps.js';
import { failureResponse, knownErrorResponse } from './http-errors.js';
import { postsRoutes } from './posts-routes.js';

/**
 * The whole API as a Hono app. Routing and translation only: every rule lives in the domain's
 * use cases, and every error becomes a status in `http-errors.ts`.
 */
export function createHttpApp(deps: HttpDeps) {
  const app = new Hono();
  app.use(requestId());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => failureResponse(c, 'MethodNotAllowed', { Allow: methods.join(', ') }),
    }),
  );

  const routes = app.route('/', accountsRoutes(deps)).route('/', postsRoutes(deps)).route('/', healthRoutes(deps));

  app.notFound((c) => failureResponse(c, 'NotFound'));
  app.onError((thrown, c) => {
    const known = knownErrorResponse(c, thrown);
    if (known) return known;
    deps.logger.error(
      { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, err: thrown },
      'unexpected error',
    );
    return failureResponse(c, 'InternalError');
  });
  return routes;
}

/** The app's route types, for `hc<AppType>(baseUrl)` typed clients. */
export type AppType = ReturnType<typeof createHttpApp>;

import { openPostAccess } from '@inkwell/domain';
import { Hono } from 'hono';
import { accountRoutes } from './routes/accounts.js';
import { corsPolicy } from './middleware/cors-policy.js';
import { docsRoutes } from './docs/docs-routes.js';
import { healthRoutes } from './routes/health.js';
import type { HttpDeps } from './http-deps.js';
import { failureResponse, knownErrorResponse } from './http-errors.js';
import { allowedMethods } from './middleware/method-not-allowed.js';
import { postRoutes } from './routes/posts.js';
import { requestContext } from './middleware/request-context.js';

/**
 * The whole API as a Hono app. Routing and translation only: every rule lives in the domain's
 * use cases, and every error becomes a status in `http-errors.ts`.
 */
export function createHttpApp(deps: HttpDeps) {
  const app = new Hono();
  // Request id, security headers and the request's log line, around everything (request-context.ts).
  app.use(requestContext(deps.accessLogger ?? deps.logger));
  // Before the routes, so a preflight OPTIONS is answered 204 instead of 405.
  const cors = corsPolicy(deps.corsOrigins);
  if (cors) app.use(cors);

  // A route that exists only under some access policies (`GET /me/posts`, where posts have
  // owners) is left out of the router elsewhere, so its path is unknown there like any other
  // (404); its type is always in, so `AppType` and the typed client describe every route a
  // server can have (routes/route-table.ts).
  const access = deps.postAccess ?? openPostAccess;
  const api = app
    .route('/', accountRoutes.app(deps, access))
    .route('/', postRoutes.app(deps, access))
    .route('/', healthRoutes.app(deps, access));
  // Outside the typed chain on purpose: the docs are for people, not part of `AppType`'s API.
  if (deps.apiDocs !== false) app.route('/', docsRoutes(access));

  // No route took the request: 405 with Allow when the path is known, else 404 (see method-not-allowed.ts).
  const methodsOn = allowedMethods(app);
  app.notFound((c) => {
    const methods = methodsOn(c.req.path);
    return methods.length > 0 && !methods.includes(c.req.method)
      ? failureResponse(c, 'MethodNotAllowed', { Allow: methods.join(', ') })
      : failureResponse(c, 'NotFound');
  });
  app.onError((thrown, c) => {
    const known = knownErrorResponse(c, thrown);
    if (known) return known;
    if (c.req.raw.signal.aborted) {
      // The client hung up (or the server cut it at a timeout) while its body was being read:
      // nothing is wrong with the service and nobody will read this answer.
      deps.logger.info({ requestId: c.get('requestId'), method: c.req.method, path: c.req.path }, 'client went away');
      return failureResponse(c, 'InternalError');
    }
    deps.logger.error(
      { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, err: thrown },
      'unexpected error',
    );
    return failureResponse(c, 'InternalError');
  });
  return api;
}

/** The app's route types, for `hc<AppType>(baseUrl)` typed clients. */
export type AppType = ReturnType<typeof createHttpApp>;

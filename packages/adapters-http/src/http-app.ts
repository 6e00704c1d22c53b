import { isDomainError } from '@inkwell/domain';
import { Hono } from 'hono';
import { accountRoutes } from './routes/accounts.js';
import { corsPolicy } from './middleware/cors-policy.js';
import { docsRoutes } from './docs/docs-routes.js';
import { healthRoutes } from './routes/health.js';
import { linkPageRoutes } from './link-pages/link-page-routes.js';
import type { HttpDeps } from './http-deps.js';
import { failureResponse, knownErrorResponse } from './http-errors.js';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { accessLog } from './middleware/access-log.js';
import { requestId } from './middleware/request-id.js';
import { securityHeaders } from './middleware/security-headers.js';
import { postRoutes } from './routes/posts.js';
import { clientWentAway } from './request/request-facts.js';

/**
 * The whole API as a Hono app. Routing and translation only: every rule lives in the domain's
 * use cases, and every error becomes a status in `http-errors.ts`.
 */
export function createHttpApp(deps: HttpDeps) {
  const app = new Hono();
  // Around everything, so every answer (errors, 404s and 405s included) is logged, and carries
  // its request id and the security headers.
  app.use(accessLog(deps.accessLogger ?? deps.logger, deps.requestsInFlight), requestId, securityHeaders);
  // A known path with another method: 405 with Allow (GET implies HEAD) instead of the 404.
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => failureResponse(c, 'MethodNotAllowed', { Allow: methods.join(', ') }) }));
  // Before the routes, so a preflight OPTIONS is answered 204 instead of 405.
  const cors = corsPolicy(deps.corsOrigins);
  if (cors) app.use(cors);

  // A route whose use case the domain does not offer under these deps (`GET /me/posts` where
  // posts have no owners) is left out of the router, so its path is unknown like any other
  // (404); its type is always in, so `AppType` and the typed client describe every route a
  // server can have (routes/route-table.ts).
  const api = app
    .route('/', accountRoutes.app(deps))
    .route('/', postRoutes.app(deps))
    .route('/', healthRoutes.app(deps));
  // Outside the typed chain on purpose: the docs are for people, not part of `AppType`'s API.
  if (deps.apiDocs !== false) app.route('/', docsRoutes(deps));
  // The pages a mailed link opens, for people too, and there only while mail is on.
  app.route('/', linkPageRoutes(deps));

  app.notFound((c) => failureResponse(c, 'NotFound'));
  app.onError((thrown, c) => {
    if (isDomainError(thrown, 'StoreUnavailable')) deps.storeUnreachable?.();
    const known = knownErrorResponse(c, thrown);
    if (known) return known;
    // Cut at shutdown: the server has said so in a line of its own.
    if (deps.requestsInFlight?.wasCut(c) === true) return failureResponse(c, 'InternalError');
    if (clientWentAway(c)) {
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

import type { RouteDocs } from '../openapi/route-docs.js';
import { accountRoutes } from './accounts.js';
import { healthRoutes } from './health.js';
import { postRoutes } from './posts.js';

/** Every route of the API, in the order the app registers them: what the OpenAPI document describes. */
export const apiRoutes: readonly RouteDocs[] = [...accountRoutes.routes, ...postRoutes.routes, ...healthRoutes.routes];

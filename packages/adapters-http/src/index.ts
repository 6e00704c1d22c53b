export { createHttpApp, type AppType } from './http-app.js';
export type { HttpDeps } from './http-deps.js';
export type { Logger } from './logger.js';
export { RequestsInFlight, type RequestSummary } from './middleware/requests-in-flight.js';
export { domainFailures, httpFailures, type HttpFailure } from './http-errors.js';
export { MAX_BODY_BYTES } from './body-limit.js';
// Types only: the document's builder (and its converter) load on the first GET /openapi.json.
export type { OpenApiDocument, OpenApiOperation, OpenApiResponse } from './openapi/types.js';
export { DOCS_CONTENT_SECURITY_POLICY } from './docs/docs-page.js';
export { LINK_PAGE_CONTENT_SECURITY_POLICY } from './link-pages/link-pages.js';
export { JSON_API_CONTENT_SECURITY_POLICY } from './response/security-headers.js';
export {
  serveNode,
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_SERVER_TIMEOUTS,
  type ConnectionLimits,
  type NodeServer,
  type ServeNodeOptions,
  type ServerTimeouts,
} from './node/serve-node.js';
export { DEFAULT_LINGER, type LingerBounds } from './node/lingering-close.js';

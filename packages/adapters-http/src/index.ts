export { createHttpApp, type AppType } from './http-app.js';
export type { HttpDeps } from './http-deps.js';
export type { Logger } from './logger.js';
export { httpFailures, type HttpFailure } from './http-errors.js';
export { MAX_BODY_BYTES } from './json-body.js';

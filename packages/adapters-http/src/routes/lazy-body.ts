import type { Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { readJsonObject } from '../request/json-body.js';

/**
 * The request's JSON body for a use case that reads it only once the rules before it have passed
 * (the credentials, a post's existence): `readJsonObject`, called when the use case asks.
 */
export function lazyBody(c: Context, deps: HttpDeps): () => Promise<Record<string, unknown>> {
  return () => readJsonObject(c, deps.maxBodyBytes);
}

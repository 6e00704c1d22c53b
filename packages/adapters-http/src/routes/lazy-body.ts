import type { ReadBody } from '@inkwell/domain';
import type { Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { readJsonObject, readOptionalJsonObject } from '../request/json-body.js';

/**
 * The request's JSON body as a use case reads it: only once its rules reach the body (the
 * credentials, a post's existence), with every body rule of `readJsonObject` (415, 413, 400).
 */
export function lazyBody(c: Context, deps: HttpDeps): ReadBody {
  return () => readJsonObject(c, deps.maxBodyBytes);
}

/** Likewise, for an endpoint whose body may be left out: a request that sends none reads as `{}`. */
export function lazyOptionalBody(c: Context, deps: HttpDeps): ReadBody {
  return () => readOptionalJsonObject(c, deps.maxBodyBytes);
}

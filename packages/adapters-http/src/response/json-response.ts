import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

/** `c.json(object, status, headers)`. */
export function jsonResponse<T, S extends ContentfulStatusCode>(
  c: Context,
  object: T,
  status: S,
  headers?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return c.json(object, status, headers) as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}

/** `c.body(null, status)`. */
export function emptyResponse<S extends 204>(c: Context, status: S): Response & TypedResponse<null, S, 'body'> {
  return c.body(null, status) as Response & TypedResponse<null, S, 'body'>;
}

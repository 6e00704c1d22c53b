import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

declare module 'hono' {
  interface ContextVariableMap {
    /** Headers for this request's response, gathered by middleware before the route runs. */
    responseHeaders: Record<string, string>;
  }
}

// Why not `c.header()` and `c.json()`: with more than the content type, hono keeps response
// headers in a WHATWG `Headers` object, and @hono/node-server then has to validate, lowercase,
// sort and copy them for every response; headers set after the route even rebuild the whole
// Response. A plain object handed to `new Response` reaches `writeHead` as it is. Measured on
// GET /posts/:id, that is most of the difference between inkwell and a bare node:http server.
// So middleware gathers per-request headers here, and the routes answer through `jsonResponse`.

/** Marks responses built by this module: they already carry every gathered header. */
const COMPLETE = Symbol('inkwell.completeHeaders');
type Marked = Response & { [COMPLETE]?: true };

/**
 * Adds a header to every response of this request (a route's own header of the same name wins).
 * Middleware calls it before `next()`; never use `c.header()` before the route, since
 * `jsonResponse` does not see hono's pending headers.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const headers = c.get('responseHeaders');
  if (headers) headers[name] = value;
  else c.set('responseHeaders', { [name]: value });
}

/** `setResponseHeader` for several at once. */
export function setResponseHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const gathered = c.get('responseHeaders');
  if (gathered) Object.assign(gathered, headers);
  else c.set('responseHeaders', { ...headers });
}

/** Whether `response` was built here, with every gathered header already on it. */
export function isBuiltWithResponseHeaders(response: Response): boolean {
  return (response as Marked)[COMPLETE] === true;
}

function build<R extends Response>(c: Context, body: string | null, status: number, headers: Record<string, string>): R {
  // A symbol property rather than a WeakSet: adding to a WeakSet cost about 1 µs per response.
  const response = new Response(body, { status, headers }) as R & Marked;
  response[COMPLETE] = true;
  return response;
}

/**
 * `c.json(object, status, headers)` with the gathered headers, answered through the fast path:
 * same body (`JSON.stringify`), same `Content-Type: application/json`, same typed result for
 * `hc` clients.
 */
export function jsonResponse<T, S extends ContentfulStatusCode>(
  c: Context,
  object: T,
  status: S,
  headers?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return build(c, JSON.stringify(object), status, { ...c.get('responseHeaders'), 'Content-Type': 'application/json', ...headers });
}

/** An answer without a body or a content type (204), with the gathered headers. */
export function emptyResponse<S extends 204>(c: Context, status: S): Response & TypedResponse<null, S, 'body'> {
  return build(c, null, status, { ...c.get('responseHeaders') });
}

/**
 * For a response not built here (hono's own, or a route's `c.html`/`c.body`): puts on the
 * gathered headers it lacks, keeping any of the same name the route set. A no-op for the rest.
 */
export function applyResponseHeaders(c: Context): void {
  const headers = c.get('responseHeaders');
  if (!headers || isBuiltWithResponseHeaders(c.res)) return;
  // Reading `c.res.headers` is what turns a response into the slow kind: only here, never on the fast path.
  const target = c.res.headers;
  for (const name in headers) if (!target.has(name)) target.set(name, headers[name] as string);
}

import type { IdempotentRequest, ReadBody } from '@inkwell/domain';
import type { Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { parseJsonObject, readJsonBytes, readJsonObject, readOptionalJsonObject } from '../request/json-body.js';

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

const utf8 = new TextEncoder();

/**
 * The body of a create sent with an idempotency key, read once for two readers: the key's request
 * (the method, the path and the body's bytes, which tell one request from another), and the use
 * case (the JSON object). Whichever asks first reads it, by every rule of `readJsonObject`, so a
 * body that is not a JSON object is refused before the key is looked at.
 */
export function idempotentBody(c: Context, deps: HttpDeps, key: string): { body: ReadBody; idempotency: IdempotentRequest } {
  let read: Promise<{ bytes: Uint8Array; json: Record<string, unknown> }> | undefined;
  const readOnce = () =>
    (read ??= (async () => {
      const bytes = await readJsonBytes(c, deps.maxBodyBytes);
      return { bytes, json: parseJsonObject(bytes) };
    })());
  return {
    body: async () => (await readOnce()).json,
    idempotency: {
      key,
      request: async () => {
        const { bytes } = await readOnce();
        const head = utf8.encode(`${c.req.method} ${c.req.path}\n`);
        const request = new Uint8Array(head.length + bytes.length);
        request.set(head);
        request.set(bytes, head.length);
        return request;
      },
    },
  };
}

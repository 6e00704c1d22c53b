import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { readBodyAtMost, sendsBody } from '../node/node-bindings.js';

/** The body limit (docs/api.md, Conventions): bodies over 1 MiB are refused. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the request body as a JSON object: 415 for another content type, 413 as soon as the
 * body passes `maxBytes` (by `Content-Length` or while streaming, without reading the rest),
 * 400 for invalid UTF-8, malformed JSON, or JSON that is not an object.
 */
export async function readJsonObject(c: Context, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!JSON_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) throw new HttpError('UnsupportedMediaType');

  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw new HttpError('BodyTooLarge');

  // A declared length bounds the body (HTTP frames it by that length), so it is read whole:
  // @hono/node-server reads it straight from Node's stream. Without one (chunked), it is counted
  // while it streams and refused as soon as it passes the limit (node-bindings.ts).
  const bytes = declared !== undefined ? new Uint8Array(await c.req.arrayBuffer()) : await readBodyAtMost(c, maxBytes);
  if (bytes.byteLength > maxBytes) throw new HttpError('BodyTooLarge');
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(bytes));
  } catch {
    throw new HttpError('InvalidJsonBody');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError('InvalidJsonBody');
  return parsed as Record<string, unknown>;
}

/**
 * The body of an endpoint whose body may be left out: `{}` when the request sends none, otherwise
 * `readJsonObject`'s answer, with every body rule.
 */
export async function readOptionalJsonObject(c: Context, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  return sendsBody(c) ? readJsonObject(c, maxBytes) : {};
}

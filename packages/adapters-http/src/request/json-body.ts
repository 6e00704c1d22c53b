import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { readNodeBody, requestHeader, sendsBody } from '../node/node-request.js';

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
  if (!JSON_MEDIA_TYPE.test(requestHeader(c, 'content-type') ?? '')) throw new HttpError('UnsupportedMediaType');

  const declared = requestHeader(c, 'content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw new HttpError('BodyTooLarge');

  // Straight from Node's stream behind @hono/node-server (see node-request.ts), else the web stream.
  const bytes = await (readNodeBody(c, maxBytes) ?? readAtMost(c.req.raw.body, maxBytes));
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

async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError('BodyTooLarge');
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { MAX_BODY_BYTES } from '../body-limit.js';
import { readBodyAtMost, sendsBody } from './request-facts.js';


const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the request body as a JSON object: 415 for another content type or for a compressed body
 * (any `Content-Encoding` but `identity`: the bytes a filter in front decompresses would not be
 * the bytes read here), 413 as soon as the body passes `maxBytes` (by `Content-Length` or while
 * it arrives, without reading the rest), 400 for invalid UTF-8, malformed JSON, or JSON that is
 * not an object.
 */
export async function readJsonObject(c: Context, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  return parseJsonObject(await readJsonBytes(c, maxBytes));
}

/**
 * The bytes of a body that must be JSON, by the rules of `readJsonObject` before the parse: 415
 * (thrown at once, so call it where a throw rejects, as in an async function) and 413.
 */
export function readJsonBytes(c: Context, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array> {
  if (!JSON_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) throw new HttpError('UnsupportedMediaType');
  if (!isIdentity(c.req.header('content-encoding'))) throw new HttpError('UnsupportedContentEncoding');
  return readBodyAtMost(c, maxBytes);
}

/** `bytes` as a JSON object: 400 for invalid UTF-8, malformed JSON, or JSON that is not an object. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(bytes));
  } catch {
    throw new HttpError('InvalidJsonBody');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError('InvalidJsonBody');
  return parsed as Record<string, unknown>;
}

/** Whether a `Content-Encoding` value names no coding at all: absent, empty, or only `identity`. */
function isIdentity(encoding: string | undefined): boolean {
  return encoding === undefined || encoding.split(',').every((coding) => /^\s*(identity)?\s*$/i.test(coding));
}

/**
 * The body of an endpoint whose body may be left out: `{}` when the request sends none, otherwise
 * `readJsonObject`'s answer, with every body rule.
 */
export async function readOptionalJsonObject(c: Context, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  return sendsBody(c) ? readJsonObject(c, maxBytes) : {};
}

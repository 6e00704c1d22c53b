import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { BodyBuffer } from './body-buffer.js';

// The request facts routes and middleware need beyond Hono's request API, asked the same way on
// every runtime. By default they come from the web `Request` (its body stream, its abort signal)
// and Hono's `getConnInfo`. A serving layer that knows them more cheaply hands its own answers
// through the app's bindings (`c.env.servingFacts`, the channel Hono gives runtimes), as
// `serveNode` does on Node (node/node-bindings.ts); nothing here knows which one runs.

/** What a serving layer may answer itself, from its own request and response (`c.env`). */
export interface ServingFacts {
  /** Whether the client hung up (or was cut at a timeout) before the answer. */
  wentAway(env: unknown): boolean;
  /** Whether the request is framed with a body, when neither `Transfer-Encoding` nor `Content-Length` says. */
  framedBody(env: unknown): boolean;
  /** The whole body, refused with `BodyTooLarge` past `maxBytes`; undefined to read the web `Request`'s. */
  readBody(env: unknown, maxBytes: number): Promise<Uint8Array> | undefined;
}

/** The bindings of a serving layer that answers some facts itself. */
export interface ServingBindings {
  servingFacts?: ServingFacts;
}

function servingFacts(c: Context): ServingFacts | undefined {
  return (c.env as ServingBindings | undefined)?.servingFacts;
}

/** The peer address of the request's connection, or undefined where the runtime has none (`app.request()`). */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** Whether the client hung up (or was cut at a timeout) before the answer: the request's signal says. */
export function clientWentAway(c: Context): boolean {
  const facts = servingFacts(c);
  return facts ? facts.wentAway(c.env) : c.req.raw.signal.aborted;
}

/**
 * Whether the request carries a body. HTTP/1.1 frames one with `Transfer-Encoding` or a
 * `Content-Length` above 0, and a request with neither has none; without a serving layer that
 * says, the web `Request` does.
 */
export function sendsBody(c: Context): boolean {
  if (c.req.header('transfer-encoding') !== undefined) return true;
  const length = c.req.header('content-length');
  if (length !== undefined) return Number(length) !== 0;
  const facts = servingFacts(c);
  return facts ? facts.framedBody(c.env) : c.req.raw.body !== null;
}

/**
 * The request body, once it has all arrived, refused with `BodyTooLarge` as soon as it passes
 * `maxBytes` (at once when its `Content-Length` does), whatever its framing. It costs at most its
 * size: on Node it is the one buffer the serving layer kept it in as it arrived; elsewhere the
 * web `Request`'s stream is read into one buffer. A refused body is not read any further.
 */
export function readBodyAtMost(c: Context, maxBytes: number): Promise<Uint8Array> {
  return servingFacts(c)?.readBody(c.env, maxBytes) ?? readStreamAtMost(c.req.raw.body, maxBytes, declaredLength(c));
}

function declaredLength(c: Context): number | undefined {
  const declared = c.req.header('content-length');
  return declared === undefined ? undefined : Number(declared);
}

async function readStreamAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number, declared: number | undefined): Promise<Uint8Array> {
  if (declared !== undefined && declared > maxBytes) throw new HttpError('BodyTooLarge');
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const bytes = new BodyBuffer(Math.min(maxBytes, declared ?? maxBytes));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes.bytes();
    if (!bytes.append(value)) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError('BodyTooLarge');
    }
  }
}

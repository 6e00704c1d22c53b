import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { BodyBuffer, readRequestBody } from './request-body.js';

// Behind @hono/node-server, `c.env` holds Node's own request and response (`incoming`,
// `outgoing`). The few questions only they answer cheaply are asked here, with the web
// `Request`'s answer wherever the app runs without them (`app.request()` in tests, or
// another runtime).

function nodeBindings(c: Context): HttpBindings | undefined {
  const env = c.env as Partial<HttpBindings> | undefined;
  return env?.incoming && env.outgoing ? (env as HttpBindings) : undefined;
}

/** The peer address of the request's socket, or undefined outside a Node server. */
export function socketAddress(c: Context): string | undefined {
  return nodeBindings(c)?.incoming.socket.remoteAddress;
}

/**
 * Whether the client hung up (or was cut at a timeout) before the answer. On Node, the
 * response's state says so without building the web `Request`'s abort signal.
 */
export function clientWentAway(c: Context): boolean {
  const node = nodeBindings(c);
  return node ? node.outgoing.destroyed : c.req.raw.signal.aborted;
}

/**
 * Whether the request carries a body. HTTP/1.1 frames one with `Transfer-Encoding` or a
 * `Content-Length` above 0, and a request with neither has none; without Node, the web
 * `Request` says.
 */
export function sendsBody(c: Context): boolean {
  if (c.req.header('transfer-encoding') !== undefined) return true;
  const length = c.req.header('content-length');
  if (length !== undefined) return Number(length) !== 0;
  return nodeBindings(c) ? false : c.req.raw.body !== null;
}

/**
 * The request body, once it has all arrived, refused with `BodyTooLarge` as soon as it passes
 * `maxBytes` (at once when its `Content-Length` does), whatever its framing. It costs at most its
 * size: on Node it is the one buffer the serving layer kept it in as it arrived
 * (request-body.ts); elsewhere the web `Request`'s stream is read into one buffer. A refused
 * body is not read any further: on Node the answer goes out at once and the connection closes
 * after it, dropping what still arrives, unparsed, for a bounded time (lingering-close.ts), so a
 * client still writing its body receives the 413.
 */
export function readBodyAtMost(c: Context, maxBytes: number): Promise<Uint8Array> {
  const node = nodeBindings(c);
  return (node && readRequestBody(node.incoming, maxBytes)) ?? readStreamAtMost(c.req.raw.body, maxBytes, declaredLength(c));
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

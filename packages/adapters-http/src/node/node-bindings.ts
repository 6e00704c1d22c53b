import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';

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
 * A body sent without a declared length (chunked), refused with `BodyTooLarge` as soon as it
 * passes `maxBytes`. On Node it is read from Node's own stream, which is then paused and left
 * unread: the server answers at once and closes the connection after the answer, reading and
 * dropping what still arrives for a bounded time (lingering-close.ts), so a client still
 * writing its body receives the 413. Without Node, the web `Request`'s stream is read.
 */
export function readBodyAtMost(c: Context, maxBytes: number): Promise<Uint8Array> {
  const node = nodeBindings(c);
  return node ? readIncomingAtMost(node.incoming, maxBytes) : readStreamAtMost(c.req.raw.body, maxBytes);
}

function readIncomingAtMost(incoming: HttpBindings['incoming'], maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onGone);
      incoming.off('close', onGone);
    };
    function onData(chunk: Buffer) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        incoming.pause();
        reject(new HttpError('BodyTooLarge'));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd() {
      stop();
      resolve(Buffer.concat(chunks, size));
    }
    function onGone() {
      stop();
      reject(new Error('request body incomplete: the client went away'));
    }
    if (incoming.readableEnded) return resolve(new Uint8Array(0));
    if (incoming.destroyed) return onGone();
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onGone);
    incoming.on('close', onGone);
  });
}

async function readStreamAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
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
  return Buffer.concat(chunks, size);
}

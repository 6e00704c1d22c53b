import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';

// Why this module: behind @hono/node-server, `c.req.raw` is a lazy stand-in for a WHATWG
// Request: reading one header builds a full `Headers` from every incoming header, and reading
// the body builds the real Request (with an AbortController and signal) and a web stream over
// Node's stream, for every request. Measured on POST /posts that was most of its cost. The
// server also hands the app Node's own request and response (`c.env.incoming`/`outgoing`), so
// these helpers read those directly and keep hono's standard path wherever they are absent
// (`app.request()` in tests, or another runtime). The answers are the same either way.

/** The part of Node's IncomingMessage used here. */
interface NodeIncoming {
  readonly rawHeaders: readonly string[];
  readonly socket: { readonly remoteAddress?: string };
  readonly readableEnded: boolean;
  readonly destroyed: boolean;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
}

/** What @hono/node-server passes as `c.env`. */
interface NodeBindings {
  readonly incoming: NodeIncoming;
  readonly outgoing: { readonly destroyed: boolean };
}

function nodeBindings(c: Context): NodeBindings | undefined {
  const env = c.env as Partial<NodeBindings> | undefined;
  return env?.incoming?.rawHeaders && env.outgoing ? (env as NodeBindings) : undefined;
}

/**
 * `c.req.header(name)` for a lower-case `name`: every value of that header joined with ", ",
 * as `Headers.get` gives it, or undefined when it is absent.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const node = nodeBindings(c);
  if (!node) return c.req.header(name);
  const raw = node.incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length === name.length && key.toLowerCase() === name) {
      const next = raw[i + 1] as string;
      value = value === undefined ? next : `${value}, ${next}`;
    }
  }
  return value;
}

/**
 * Whether the request carries a body. HTTP/1.1 frames one with `Content-Length` (above 0) or
 * `Transfer-Encoding`, and a request with neither has none; outside Node, the web Request says.
 */
export function sendsBody(c: Context): boolean {
  if (!nodeBindings(c)) return c.req.raw.body !== null;
  const length = requestHeader(c, 'content-length');
  return requestHeader(c, 'transfer-encoding') !== undefined || (length !== undefined && Number(length) !== 0);
}

/** The peer address of the request's socket, or undefined outside a Node server (`app.request` in tests). */
export function socketAddress(c: Context): string | undefined {
  return nodeBindings(c)?.incoming.socket.remoteAddress;
}

/** Whether the client hung up (or was cut at a timeout) before the answer. */
export function clientWentAway(c: Context): boolean {
  const node = nodeBindings(c);
  return node ? node.outgoing.destroyed : c.req.raw.signal.aborted;
}

/**
 * The request body, refused with `BodyTooLarge` as soon as it passes `maxBytes` (the rest is
 * left unread: the server closes the connection after the answer, reading and dropping what
 * still arrives for a bounded time), read from Node's stream; null when the app is not behind
 * @hono/node-server.
 */
export function readNodeBody(c: Context, maxBytes: number): Promise<Uint8Array> | null {
  const node = nodeBindings(c);
  if (!node) return null;
  const incoming = node.incoming;
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onGone);
      incoming.off('close', onGone);
    };
    // A client that hangs up mid-body: answered after the response's own close handlers ran,
    // so the error handler sees the request as aborted, exactly as with the web stream.
    const gone = () => setImmediate(() => reject(new Error('request body incomplete: the client went away')));
    function onData(chunk: Uint8Array) {
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
      resolve(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size));
    }
    function onGone() {
      stop();
      gone();
    }
    if (incoming.readableEnded) return resolve(new Uint8Array(0));
    if (incoming.destroyed) return gone();
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onGone);
    incoming.on('close', onGone);
  });
}

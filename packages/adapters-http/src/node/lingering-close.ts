import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How long, and for how many bytes, a closing connection keeps reading what the client still sends. */
export interface LingerBounds {
  /** Time from the answer to the socket's end, at most. */
  readonly maxMs: number;
  /** Bytes read and discarded after the answer, at most. */
  readonly maxBytes: number;
}

/**
 * The production bounds: long enough for a client that writes its whole body before reading
 * (a browser's or fetch's upload a few MiB past the 1 MiB limit, on a slow link) to finish and
 * read the answer; short and small enough that a client that never stops sending holds a
 * socket for seconds, not for as long as it likes. nginx lingers up to 30 s; we prefer to let
 * an endless sender go sooner.
 */
export const DEFAULT_LINGER: LingerBounds = { maxMs: 5_000, maxBytes: 8 * 1024 * 1024 };

/** How often the byte bound is checked: the HTTP parser reads the socket itself, so its byte count is polled. */
const CHECK_EVERY_MS = 50;

const lingering = new WeakSet<Duplex>();

/**
 * Closes `socket` the way nginx's lingering close does, after an answer has been written to it:
 * sends FIN once the answer is out, then keeps reading and discarding whatever the client still
 * sends, and destroys the socket when the client is done (it ends its side, or `request`'s body
 * ends) or at the bounds. Destroying a socket while the client's bytes still arrive makes the
 * kernel answer them with a reset, and a reset can discard the answer from the client's receive
 * buffer before the client reads it: a client that writes its whole body before reading would
 * see `EPIPE` instead of the answer. Calling it again on the same socket does nothing.
 */
export function lingeringClose(socket: Duplex, bounds: LingerBounds, request?: IncomingMessage): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);

  // Once the answer and the FIN are out, nothing of ours is lost by destroying.
  const destroyWhenWritten = () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const startedAt = bytesRead(socket);
  const byteCheck = setInterval(() => {
    if (bytesRead(socket) - startedAt > bounds.maxBytes) socket.destroy();
  }, CHECK_EVERY_MS);
  const timeLimit = setTimeout(() => socket.destroy(), bounds.maxMs);
  byteCheck.unref();
  timeLimit.unref();
  socket.once('close', () => {
    clearInterval(byteCheck);
    clearTimeout(timeLimit);
  });
  socket.once('end', destroyWhenWritten);
  if (request) {
    request.once('end', destroyWhenWritten);
    // What the parser still hands the request is dropped; a paused request would stop the socket.
    request.resume();
  }
  socket.end();
}

function bytesRead(socket: Duplex): number {
  return (socket as Partial<Socket>).bytesRead ?? 0;
}

/**
 * `ServerResponse` for a server whose early answers must arrive: when an answer is written
 * before the request body was read to its end (413, 415, a 404 or 401 that needs no body), it
 * says `Connection: close`, and the connection ends with `lingeringClose` instead of Node's
 * immediate destroy. Every other answer is untouched (one property read per response) and
 * keeps the connection alive.
 */
export function lingeringResponses(bounds: LingerBounds): typeof ServerResponse {
  return class LingeringServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, ...rest: [(string | OutgoingHttpHeaders | OutgoingHttpHeader[])?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]): this {
      if (!this.req.complete && hasBody(this.req)) this.#closeAfterAnswer();
      return super.writeHead(statusCode, ...(rest as [string?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]));
    }

    #closeAfterAnswer(): void {
      this.setHeader('Connection', 'close');
      const { socket, req } = this;
      // Node ends a `Connection: close` response with socket.destroySoon(); this socket lingers instead.
      if (socket) socket.destroySoon = () => lingeringClose(socket, bounds, req);
    }
  };
}

/** Whether the request announced a body (the parser knows a body-less request is complete only after the headers). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

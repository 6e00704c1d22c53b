import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * How long a closing connection keeps reading what the client still sends: bounded by time, as
 * nginx bounds its lingering close, and not by bytes (see docs/security.md).
 */
export interface LingerBounds {
  /** Time from the answer to the socket's end, at most, however steadily the client sends (nginx's `lingering_time`). */
  readonly maxMs: number;
  /** Time the client may send nothing before the socket ends (nginx's `lingering_timeout`). */
  readonly idleMs: number;
}

/**
 * The production bounds, nginx's defaults, which match the server's own timeouts: a client gets
 * as long to finish sending a refused body as it had to send a whole request (30 s, the request
 * timeout), and may pause as long as a kept-alive connection may idle (5 s). A byte bound would
 * cut clients that are merely finishing an upload on a fast link, and protect nothing: what is
 * read is dropped at once, so memory does not grow, and the time bound already frees the socket.
 */
export const DEFAULT_LINGER: LingerBounds = { maxMs: 30_000, idleMs: 5_000 };

const lingering = new WeakSet<Duplex>();

/**
 * Closes `socket` the way nginx's lingering close does, after an answer has been written to it:
 * sends FIN once the answer is out, then keeps reading and discarding whatever the client still
 * sends, and destroys the socket when the client is done (it ends its side, or `request`'s body
 * ends), when it has sent nothing for `idleMs`, or `maxMs` after the answer. Destroying a socket
 * while the client's bytes still arrive makes the kernel answer them with a reset, and a reset
 * discards the answer from the client's receive buffer if the client has not read it yet: a
 * client that writes its whole body before reading would see `EPIPE` instead of the answer.
 * Calling it again on the same socket does nothing.
 */
export function lingeringClose(socket: Duplex, bounds: LingerBounds, request?: IncomingMessage): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);

  // Once the answer and the FIN are out, nothing of ours is lost by destroying.
  const destroyWhenWritten = () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const cut = () => socket.destroy();
  const timeLimit = setTimeout(cut, bounds.maxMs);
  timeLimit.unref();
  socket.once('close', () => clearTimeout(timeLimit));
  // A socket's own timeout is idle time: every read restarts it, the HTTP parser's reads
  // included (they bypass 'data' events, so Node restarts it for them).
  (socket as Partial<Pick<Socket, 'setTimeout'>>).setTimeout?.(bounds.idleMs);
  socket.once('timeout', cut);
  socket.once('end', destroyWhenWritten);
  if (request) {
    request.once('end', destroyWhenWritten);
    // What the parser still hands the request is dropped; a paused request would stop the socket.
    request.resume();
  }
  socket.end();
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

import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerTaken, answerWaiting, answerWritten, releaseHolds } from './backpressure.js';
import { detachParser, responseInFlight } from './node-internals.js';
import { continueWasSent, dropRequestBody, sendPendingContinue } from './request-body.js';

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
 * timeout), and may pause for 5 s (nginx's `lingering_timeout`). A byte bound would
 * cut clients that are merely finishing an upload on a fast link, and protect nothing: what is
 * read is dropped at once, unparsed, so memory does not grow, and the time bound already frees
 * the socket.
 */
export const DEFAULT_LINGER: LingerBounds = { maxMs: 30_000, idleMs: 5_000 };

/** What arrives on a lingering connection: nothing of it is kept or parsed. */
const discard = (): void => undefined;

/**
 * The connections of one server that close after their answer. Once an answer on a connection
 * says `Connection: close` (the client asked for it, or the answer came before the request's body
 * had all arrived, or the parser refused what followed), no later request on it runs (RFC 9112
 * §9.6): the parser stops reading the connection, and what it had already read is not run. The
 * connection then ends with a lingering close, as nginx's does: the server sends its FIN once the
 * answer is out, and keeps reading and dropping, unparsed, whatever the client still sends until
 * the client is done (it ends its side), has sent nothing for `idleMs`, or `maxMs` after the
 * answer. Closing while the client's bytes still arrive would make the kernel answer them with a
 * reset, and a reset discards the answer from the client's receive buffer if the client has not
 * read it yet: a client that writes its whole body before reading would see `EPIPE` instead of
 * the answer. At most `maxLingering` connections linger at once: past it, the one that has
 * lingered longest is closed at once.
 */
export class ClosingConnections {
  readonly #closing = new WeakSet<Duplex>();
  readonly #detached = new WeakSet<Duplex>();
  /** In the order they began: the first has lingered longest. */
  readonly #lingering = new Set<Duplex>();

  constructor(
    readonly bounds: LingerBounds,
    readonly maxLingering: number,
  ) {}

  /** Whether an answer on `socket` says, or will say, `Connection: close`: no further request on it may run. */
  closing(socket: Duplex): boolean {
    return this.#closing.has(socket);
  }

  /** Marks `socket` to close after the answer on its way: no request that follows on it runs. */
  closeAfterAnswer(socket: Duplex): void {
    this.#closing.add(socket);
  }

  /**
   * Stops the parser reading `socket`: from now on what arrives is dropped unparsed. Done after
   * the current parser run, if one is under way.
   */
  stopParsing(socket: Duplex): void {
    this.#closing.add(socket);
    if (this.#detached.has(socket)) return;
    this.#detached.add(socket);
    setImmediate(() => {
      if (!socket.destroyed) detachParser(socket, discard);
    });
  }

  /** Whether `socket` is closing with a lingering close. */
  lingers(socket: Duplex): boolean {
    return this.#lingering.has(socket);
  }

  /**
   * Closes `socket` with a lingering close, once what was written to it is out (it is Node's
   * `destroySoon` for every connection of the server). Calling it again does nothing.
   */
  linger(socket: Duplex): void {
    if (this.#lingering.has(socket) || socket.destroyed) return;
    this.stopParsing(socket);
    releaseHolds(socket);
    if (this.maxLingering === 0) {
      this.destroyWhenWritten(socket);
      socket.end();
      return;
    }
    if (this.#lingering.size >= this.maxLingering) {
      const [longest] = this.#lingering;
      this.#lingering.delete(longest as Duplex);
      longest?.destroy();
    }
    this.#lingering.add(socket);
    const cut = () => socket.destroy();
    const timeLimit = setTimeout(cut, this.bounds.maxMs);
    timeLimit.unref();
    socket.once('close', () => {
      clearTimeout(timeLimit);
      this.#lingering.delete(socket);
    });
    // A socket's own timeout is idle time: every read restarts it.
    (socket as Partial<Pick<Socket, 'setTimeout'>>).setTimeout?.(this.bounds.idleMs);
    socket.once('timeout', cut);
    socket.once('end', () => this.destroyWhenWritten(socket));
    socket.end();
  }

  /** Destroys `socket` once the answer and the FIN are out: nothing of ours is lost by it then. */
  destroyWhenWritten(socket: Duplex): void {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  }
}

/**
 * `ServerResponse` for a server whose early answers must arrive: when an answer is written
 * before the request body was read to its end (413, 415, a 404 or 401 that needs no body), it
 * says `Connection: close`, keeps nothing more of the body, stops the parser (the rest of the
 * body is dropped unparsed, and no request after it runs), and the connection ends with a
 * lingering close. Every other answer keeps the connection alive: one to a request that asked
 * for `100 Continue` and whose body came without it is preceded by that `100 Continue`
 * (request-body.ts, `sendPendingContinue`). An answer that follows a `100 Continue` goes out after
 * it, in whatever pieces its body is written. An answer ended while an earlier one on the connection
 * is still being prepared waits for it, and the connection is not read meanwhile (backpressure.ts).
 * `answered` hears of every answer written in full, with its connection; then the requests that
 * waited for room among the answers not taken run (backpressure.ts).
 */
export function lingeringResponses(connections: ClosingConnections, answered: (socket: Socket) => void): typeof ServerResponse {
  return class LingeringServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(statusCode: number, ...rest: [(string | OutgoingHttpHeaders | OutgoingHttpHeader[])?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]): this {
      let continued: boolean;
      if (!this.req.complete && hasBody(this.req)) {
        this.setHeader('Connection', 'close');
        dropRequestBody(this.req);
        connections.stopParsing(this.req.socket);
        continued = continueWasSent(this.req);
      } else continued = sendPendingContinue(this.req);
      super.writeHead(statusCode, ...(rest as [string?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]));
      // While an earlier pipelined answer still holds the connection, Node queues what a response
      // writes, the `100 Continue` included, and it puts the head in front of that queue when the
      // first piece of the body is bytes rather than a string (as @hono/node-server writes a
      // `Response`'s body): the client would read `100 Continue` inside the answer's body, and
      // every answer after it out of step. Queued now, the head goes out after the `100 Continue`.
      if (continued) this.flushHeaders();
      return this;
    }

    override detachSocket(socket: Socket): void {
      super.detachSocket(socket);
      answered(socket);
      answerTaken(socket, this);
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      const socket = this.req.socket;
      const waits = responseInFlight(socket) !== this && !this.writableEnded && !socket.destroyed;
      super.end(chunk, encoding as BufferEncoding, callback as () => void);
      if (waits) {
        answerWaiting(socket);
        this.once('close', () => answerWritten(socket));
      }
      return this;
    }
  };
}

/** Whether the request announced a body (the parser knows a body-less request is complete only after the headers). */
export function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

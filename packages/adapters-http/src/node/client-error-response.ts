import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { httpFailures, type HttpFailure } from '../http-errors.js';
import type { ClosingConnections } from './lingering-close.js';
import { responseInFlight } from './node-internals.js';

/** Node's own rejections, by the code of its error, answered with the API's error shape instead of Node's empty defaults. */
const rejections: Readonly<Record<string, HttpFailure>> = {
  HPE_HEADER_OVERFLOW: 'RequestHeadersTooLarge',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'BodyTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'RequestTimeout',
};

/** Headers every answer written here carries besides its own: the app's security headers. */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** The JSON body of `failure`, and the headers that go with it besides `answerHeaders` and `extra`. */
function jsonAnswer(failure: HttpFailure, answerHeaders: AnswerHeaders, extra: AnswerHeaders = {}) {
  const { status, error } = httpFailures[failure];
  const body = JSON.stringify({ error });
  const headers = { ...answerHeaders, ...extra, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
  return { status, body, headers };
}

/**
 * The raw HTTP/1.1 answer `failure` for a connection no response object writes to (one the
 * parser refused, a CONNECT), in JSON, with the date as every answer has it, closing the connection.
 */
export function rawJsonAnswer(failure: HttpFailure, answerHeaders: AnswerHeaders, extra?: AnswerHeaders): string {
  const { status, body, headers } = jsonAnswer(failure, answerHeaders, extra);
  const lines = Object.entries({ ...headers, Date: new Date().toUTCString(), Connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...lines, '', body].join('\r\n');
}

/** The raw HTTP/1.1 response for a rejection (any other parser error is a 400), closed after it. */
export function clientErrorResponse(code: string | undefined, answerHeaders: AnswerHeaders): string {
  return rawJsonAnswer((code !== undefined && rejections[code]) || 'BadRequest', answerHeaders);
}

/**
 * Answers `failure` in JSON on `response`, before any route runs (a request without `Host`, an
 * expectation the server cannot meet); Node adds the date and, when the request's body has not
 * all arrived, the serving layer closes the connection after it.
 */
export function answerWithJson(response: ServerResponse, failure: HttpFailure, answerHeaders: AnswerHeaders, extra?: AnswerHeaders): void {
  const { status, body, headers } = jsonAnswer(failure, answerHeaders, extra);
  response.writeHead(status, headers);
  response.end(body);
}

/**
 * Handles the server's `clientError` (a request Node's parser refused: headers over the size
 * limit, a malformed request line, the header or request timeout) with a JSON error response.
 * The parser stops reading the connection at once: nothing after the refused bytes is parsed or
 * run. The answers of the requests before them, still running, go out first, in order; then the
 * rejection, and the connection ends with a lingering close (a reset would discard the answer
 * before the client reads it). When the refused bytes belong to the request being answered (its
 * body broke off or timed out), the rejection is its answer, if none has begun, and the
 * connection is cut, as Node's default handler does: nothing is written once a response has begun,
 * since that would corrupt it.
 */
export function answerClientErrorsWithJson(server: Server, connections: ClosingConnections, answerHeaders: AnswerHeaders): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // On a lingering connection the parser has stopped: its complaints (the timeout of the request
    // it was in, the end of input it never saw the end of) only mean the connection is done.
    if (connections.lingers(socket)) return connections.destroyWhenWritten(socket);
    // After an answer that closes the connection, what follows it is not the parser's to judge
    // (the connection ends with that answer), but a request timeout still cuts it.
    if (connections.closing(socket) && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return;
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    connections.stopParsing(socket);
    afterRunningAnswers(socket, connections, () => {
      const inFlight = responseInFlight(socket);
      if (inFlight) {
        if (!inFlight.headersSent) socket.write(clientErrorResponse(error.code, answerHeaders));
        socket.destroy();
        return;
      }
      if (!socket.writable) return;
      socket.write(clientErrorResponse(error.code, answerHeaders));
      connections.linger(socket);
    });
  });
}

/**
 * Calls `then` once `socket` writes no answer of a request whose bytes all arrived (requests
 * still running, pipelined before what the parser refused or the `CONNECT`), or at once; the
 * answer in flight then, if any, is that of the request the refusal is about. Answers that are
 * not out within the lingering close's time bound (a client that does not read them) end the
 * connection instead.
 */
function afterRunningAnswers(socket: Duplex, connections: ClosingConnections, then: () => void): void {
  if (!responseInFlight(socket)?.req.complete) return then();
  const cut = setTimeout(() => socket.destroy(), connections.bounds.maxMs);
  cut.unref();
  const next = () => {
    const inFlight = responseInFlight(socket);
    // 'close' follows the response's end, once Node has handed the socket to the next pipelined response, if any.
    if (inFlight?.req.complete) inFlight.once('close', next);
    else {
      clearTimeout(cut);
      if (!socket.destroyed) then();
    }
  };
  next();
}

/**
 * Answers a `CONNECT` (a request to open a tunnel, which this server never does) 405 in JSON,
 * with an empty `Allow`: the target is a host and port, not a resource of this API, and allows
 * no method here (RFC 9110 §15.5.6). Node hands such a connection over without parsing it any
 * further; the answers of the requests pipelined before the `CONNECT` go out first, in order, then
 * the 405, and the connection closes with a lingering close, without reading what follows.
 */
export function answerConnectWithJson(server: Server, connections: ClosingConnections, answerHeaders: AnswerHeaders): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    // Node hands the socket over without its own 'error' listener: a client gone by the time the
    // answers before the 405 are out (a write meeting EPIPE or a reset) only ends the connection.
    socket.on('error', () => socket.destroy());
    connections.stopParsing(socket);
    afterRunningAnswers(socket, connections, () => {
      if (!socket.writable) return;
      socket.write(rawJsonAnswer('MethodNotAllowed', answerHeaders, { Allow: '' }));
      connections.linger(socket);
    });
  });
}

/**
 * The answer when `@hono/node-server` cannot turn Node's request into a fetch `Request` (its
 * `requestError`, such as a `Host` header that is no host name or a backslash in the path) or the
 * app throws outside its own error handling: the API's error shape instead of the adapter's empty
 * 400 and text 500.
 */
export function requestErrorResponse(answerHeaders: AnswerHeaders, requestError: abstract new (...args: never[]) => Error): (error: unknown) => Response {
  return (error) => {
    const { status, error: message } = httpFailures[error instanceof requestError ? 'BadRequest' : 'InternalError'];
    return new Response(JSON.stringify({ error: message }), { status, headers: { ...answerHeaders, 'Content-Type': 'application/json' } });
  };
}

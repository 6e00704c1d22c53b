import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { httpFailures, type HttpFailure } from '../http-errors.js';
import { lingeringClose, type LingerBounds } from './lingering-close.js';

/** Node's own rejections, by the code of its error, answered with the API's error shape instead of Node's empty defaults. */
const rejections: Readonly<Record<string, HttpFailure>> = {
  HPE_HEADER_OVERFLOW: 'RequestHeadersTooLarge',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'BodyTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'RequestTimeout',
};

/** Headers every answer written here carries besides its own: the app's security headers. */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** The raw HTTP/1.1 response for a rejection (any other parser error is a 400), closed after it. */
export function clientErrorResponse(code: string | undefined, answerHeaders: AnswerHeaders): string {
  const { status, error } = httpFailures[(code !== undefined && rejections[code]) || 'BadRequest'];
  const body = JSON.stringify({ error });
  const headers = { ...answerHeaders, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  return [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', body].join('\r\n');
}

/**
 * Handles the server's `clientError` (a request Node's parser refused: headers over the size
 * limit, a malformed request line, the header or request timeout) with a JSON error response.
 * As Node's default handler does, nothing is written once a response to this socket has
 * begun, since that would corrupt it. Between requests the answer is sent and the connection
 * ends with a lingering close (a reset would discard the answer before the client reads it).
 */
export function answerClientErrorsWithJson(server: Server, linger: LingerBounds, answerHeaders: AnswerHeaders): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight) {
      if (!inFlight.headersSent) socket.write(clientErrorResponse(error.code, answerHeaders));
      socket.destroy();
      return;
    }
    socket.write(clientErrorResponse(error.code, answerHeaders));
    lingeringClose(socket, linger);
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

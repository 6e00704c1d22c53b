import { RequestError } from '@hono/node-server';
import { JSON_API_CONTENT_SECURITY_POLICY } from '@inkwell/adapters-http';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { lingeringClose, type LingerBounds } from './lingering-close.js';


/** Node's own rejections, answered with the API's error shape instead of Node's empty defaults. */
const rejections = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', error: 'Request headers too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, reason: 'Payload Too Large', error: 'Request body too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', error: 'Request timeout' },
  malformed: { status: 400, reason: 'Bad Request', error: 'Bad request' },
} as const;

/** The raw HTTP/1.1 response for a rejection, closed after it. */
export function clientErrorResponse(code: string | undefined): string {
  const { status, reason, error } =
    code !== undefined && code in rejections ? rejections[code as keyof typeof rejections] : rejections.malformed;
  const body = JSON.stringify({ error });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    'X-Content-Type-Options: nosniff',
    `Content-Security-Policy: ${JSON_API_CONTENT_SECURITY_POLICY}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Handles the server's `clientError` (a request Node's parser refused: headers over the size
 * limit, a malformed request line, the header or request timeout) with a JSON error response.
 * As Node's default handler does, nothing is written once a response to this socket has
 * begun, since that would corrupt it. Between requests the answer is sent and the connection
 * ends with a lingering close (a reset would discard the answer before the client reads it).
 */
export function answerClientErrorsWithJson(server: Server, linger: LingerBounds): void {
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
      if (!inFlight.headersSent) socket.write(clientErrorResponse(error.code));
      socket.destroy();
      return;
    }
    socket.write(clientErrorResponse(error.code));
    lingeringClose(socket, linger);
  });
}

/**
 * The answer when `@hono/node-server` cannot turn Node's request into a fetch `Request` (a
 * `Host` header that is no host name, a backslash in the path) or the app throws outside its own
 * error handling: the API's error shape instead of the adapter's empty 400 and text 500.
 */
export function requestErrorResponse(error: unknown): Response {
  const [status, message] = error instanceof RequestError ? [400, 'Bad request'] : [500, 'Internal server error'];
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: {
      'Content-Type': 'application/json',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': JSON_API_CONTENT_SECURITY_POLICY,
    },
  });
}

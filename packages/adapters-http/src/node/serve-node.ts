import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SECURITY_HEADERS } from '../response/security-headers.js';
import { MAX_BODY_BYTES } from '../body-limit.js';
import { answerClientErrorsWithJson, answerConnectWithJson, answerWithJson, requestErrorResponse } from './client-error-response.js';
import { installDirectAnswers, type DirectAnswers } from './direct-answers.js';
import { installLightHeaders } from './light-headers.js';
import { ClosingConnections, DEFAULT_LINGER, hasBody, lingeringResponses, type LingerBounds } from './lingering-close.js';
import { continueWhenRead, dropRequestBody, requestsWithBodyBuffer } from './request-body.js';

/**
 * Bounded waits, so slow or stalled clients (slowloris) cannot hold connections open. Node
 * enforces the header and request timeouts on a sweep every `checkIntervalMs` (its own default
 * is 30 s, which would let a 10 s header timeout run to 40 s).
 */
export interface ServerTimeouts {
  /** Time allowed to receive the request headers. */
  readonly headersMs: number;
  /** Time allowed to receive the whole request. Must not be below `headersMs`. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection is kept. */
  readonly keepAliveMs: number;
  readonly checkIntervalMs: number;
}

/** The production timeouts. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

/** How many connections one server holds at once. */
export interface ConnectionLimits {
  /** Open connections, lingering ones included: past it, a new connection is closed as soon as it is accepted, unanswered. */
  readonly open: number;
  /** Connections in their lingering close: past it, the one that has lingered longest is closed at once. */
  readonly lingering: number;
}

/**
 * The production limits, for one process on two cores. An open connection costs a few
 * kilobytes while idle, and up to the 1 MiB body limit while a body arrives: at most 1 GiB of
 * bodies at once. Lingering connections are those answered early (or refused): a client that
 * makes many of them cannot take more than an eighth of the connections for it.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { open: 1024, lingering: 128 };

/** How long shutdown waits for in-flight requests before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Where and how to serve. */
export interface ServeNodeOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly timeouts?: Partial<ServerTimeouts>;
  /** How long a closing connection keeps reading after an early answer. */
  readonly linger?: Partial<LingerBounds>;
  /** How many connections, and lingering ones, it holds at once. */
  readonly connections?: Partial<ConnectionLimits>;
  /** The most of a request body the server keeps, as the API's body limit (1 MiB) by default. */
  readonly maxBodyBytes?: number;
}

/** A listening Node server. */
export interface NodeServer {
  /** `http://HOST:PORT` as bound (the real port when the port asked for was 0). */
  readonly url: string;
  readonly port: number;
  /**
   * Starts the drain before a stop: the server keeps accepting connections and running
   * requests, but from now on every answer says `Connection: close` and ends its connection
   * with a lingering close, the answers already being prepared included (on a connection with
   * pipelined requests, the last one's), so clients move to other servers without a request
   * lost. It goes through the serving layer's own closing mark, never a header set by the app,
   * which would close a connection under the pipelined requests still running on it.
   * Calling it again does nothing.
   */
  drain(): void;
  /**
   * Drains (if `drain` was not called), stops accepting connections, closes idle ones and lets
   * in-flight requests finish (for 10 s at most).
   */
  close(): Promise<void>;
}

/** Anything with a fetch handler: the Hono app `createHttpApp` returns. */
export interface FetchApp {
  fetch(request: Request, env: unknown): Response | Promise<Response>;
}

/**
 * Serves `app` on a `node:http` server through @hono/node-server's request listener: the
 * timeouts and limits above, request bodies kept in one buffer each (request-body.ts), JSON
 * answers for requests Node's parser or the adapter refuse, early answers that reach clients
 * which write their whole body first (a lingering close), and nothing run on a connection after
 * an answer that closes it.
 *
 * This is where inkwell is made fast on Node, so that the app is plain Hono (see "Where speed
 * lives" in docs/architecture.md): the global `Headers` Hono builds answers with is
 * `LightHeaders`, and answers with a string body are written to Node directly (direct-answers.ts).
 */
export async function serveNode(app: FetchApp, options: ServeNodeOptions): Promise<NodeServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const connections = new ClosingConnections({ ...DEFAULT_LINGER, ...options.linger }, limits.lingering);
  installLightHeaders();
  // Loaded once `Headers` is the light one: @hono/node-server reads request headers straight from
  // Node's request only while the global `Headers` is the one it saw when it was loaded, and
  // copies every request header into a new `Headers` otherwise.
  const { getRequestListener, RequestError } = await import('@hono/node-server');
  const listener = getRequestListener((request, env) => directlyAnswered(app, request, env, direct), {
    hostname: options.host,
    errorHandler: requestErrorResponse(SECURITY_HEADERS, RequestError),
  });
  // After the listener, which makes @hono/node-server's light `Response` the global one that
  // direct answers extend; no request arrives before the server listens, below.
  const direct = installDirectAnswers(RESPONSE_ALREADY_SENT);
  // createAdaptorServer without its shortcut, for the errorHandler: requests the adapter cannot
  // translate answer JSON too.
  const server: Server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
    IncomingMessage: requestsWithBodyBuffer(options.maxBodyBytes ?? MAX_BODY_BYTES),
    ServerResponse: lingeringResponses(connections),
    // Answered in JSON below rather than with Node's bare 400.
    requireHostHeader: false,
  });
  server.maxConnections = limits.open;
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    // Node ends a connection after an answer that closes it with destroySoon(), which destroys it
    // as soon as the answer is written: every connection of this server lingers instead.
    socket.destroySoon = () => connections.linger(socket);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const draining = { now: false };
  const serve = requestGate(connections, draining, listener);
  server.on('request', serve);
  // Expect: 100-continue: `100 Continue` goes out when the body is read, not before: an answer
  // that needs no body (413 by Content-Length, 415, 401) goes out without inviting the upload.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    continueWhenRead(request, response);
    serve(request, response);
  });
  // Any other expectation is one this server cannot meet.
  server.on('checkExpectation', requestGate(connections, draining, (_request, response) => answerWithJson(response, 'ExpectationFailed', SECURITY_HEADERS)));
  answerConnectWithJson(server, connections, SECURITY_HEADERS);
  answerClientErrorsWithJson(server, connections, SECURITY_HEADERS);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const drain = () => {
    if (draining.now) return;
    draining.now = true;
    for (const socket of open) {
      const last = lastResponse(socket);
      if (last !== undefined && !last.headersSent) closeAfter(connections, last);
    }
  };
  let closing: Promise<void> | undefined;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    drain,
    close: () => {
      drain();
      return (closing ??= stop(server));
    },
  };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** The response of the last request run on each connection: during a drain, the one whose answer closes it. */
const lastResponses = new WeakMap<Socket, ServerResponse>();

function lastResponse(socket: Socket): ServerResponse | undefined {
  return lastResponses.get(socket);
}

/** Makes `response` the last answer on its connection: it says `Connection: close`, and no request after it runs. */
function closeAfter(connections: ClosingConnections, response: ServerResponse): void {
  response.shouldKeepAlive = false;
  connections.closeAfterAnswer(response.req.socket);
}

/**
 * `listener`, for the requests that may run: none after an answer that closes the connection
 * (RFC 9112 §9.6), and none without `Host` in HTTP/1.1 (RFC 9112 §3.2), which is answered 400.
 * While the server drains, every request's answer closes its connection.
 */
function requestGate(connections: ClosingConnections, draining: { readonly now: boolean }, listener: Listener): Listener {
  return (request, response) => {
    const { socket } = request;
    if (connections.closing(socket)) {
      // Parsed before the parser stopped; it is neither run nor answered, and the parser stops now.
      dropRequestBody(request);
      connections.stopParsing(socket);
      return;
    }
    lastResponses.set(socket, response);
    // The client asked to close (or spoke HTTP/1.0 without keep-alive), or the server drains:
    // nothing after this request runs.
    if (!response.shouldKeepAlive || draining.now) closeAfter(connections, response);
    if (request.headers.host === undefined && request.httpVersionMinor === 1) {
      connections.closeAfterAnswer(socket);
      answerWithJson(response, 'BadRequest', SECURITY_HEADERS, { Connection: 'close' });
      return;
    }
    listener(request, response);
  };
}

/**
 * `app.fetch`, with every answer the direct writer can write written to Node's response at once;
 * @hono/node-server is then told it was sent (its documented `RESPONSE_ALREADY_SENT`) and writes
 * every other answer itself. An answer ready before the request's body has all arrived waits
 * until the parser has run through what the socket has already received: a body sent with its
 * request (a `DELETE` with `{}`) is then complete, and the answer keeps the connection alive as
 * for any request read in full; otherwise it is an early answer, and closes it.
 */
function directlyAnswered(app: FetchApp, request: Request, env: HttpBindings | Http2Bindings, direct: DirectAnswers): Response | Promise<Response> {
  // A `node:http` server: its responses are `ServerResponse`s.
  const outgoing = env.outgoing as HttpBindings['outgoing'];
  const answered = (response: Response) => (direct.write(response, outgoing) ? direct.sent : response);
  const settled = (response: Response) => (bodyArriving(outgoing.req) ? afterThisRead().then(() => answered(response)) : answered(response));
  const answer = app.fetch(request, env);
  return answer instanceof Promise ? answer.then(settled) : settled(answer);
}

function bodyArriving(request: IncomingMessage): boolean {
  return !request.complete && hasBody(request);
}

/** Resolves once the parser has run through the bytes read so far (after this turn's I/O). */
function afterThisRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function stop(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections turn idle as their last response ends: close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(grace);
}

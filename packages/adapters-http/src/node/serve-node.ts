import type * as HonoNodeServer from '@hono/node-server';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { SECURITY_HEADERS } from '../response/security-headers.js';
import { MAX_BODY_BYTES } from '../body-limit.js';
import { cutStalledAnswers, inTurn, requestsWaiting } from './backpressure.js';
import { answerClientErrorsWithJson, answerConnectWithJson, answerWithJson, requestErrorResponse } from './client-error-response.js';
import { ConnectionBudget } from './connection-budget.js';
import { directAnswers, type DirectAnswers } from './direct-answers.js';
import { fastGlobalsHeld, holdFastGlobals } from './fast-globals.js';
import { LightHeaders } from './light-headers.js';
import { ClosingConnections, DEFAULT_LINGER, hasBody, lingeringResponses, type LingerBounds } from './lingering-close.js';
import { withNodeFacts } from './node-bindings.js';
import { continueWhenRead, dropRequestBody, requestsWithBodyBuffer } from './request-body.js';

/**
 * Bounded waits, so slow or stalled clients (slowloris) cannot hold connections open. Node
 * enforces the header and request timeouts on a sweep every `checkIntervalMs` (its own default
 * is 30 s, which would let a 10 s header timeout run to 40 s).
 */
export interface ServerTimeouts {
  /** Time allowed to receive the request headers, from the request's first byte (the idle time before it is `keepAliveMs`'s). */
  readonly headersMs: number;
  /** Time allowed to receive the whole request. Must not be below `headersMs`. */
  readonly requestMs: number;
  /**
   * How long an idle keep-alive connection is kept (sent as `Keep-Alive: timeout=…`). Longer than
   * the idle timeout of any load balancer in front (60 s for the common ones), so that the
   * balancer, not the server, closes an idle connection: a server that closes first races the
   * balancer's next request on it, which the balancer answers 502.
   */
  readonly keepAliveMs: number;
  readonly checkIntervalMs: number;
}

/** The production timeouts. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
  checkIntervalMs: 1_000,
};

/** How many connections one server holds at once (connection-budget.ts says which it closes for a newcomer). */
export interface ConnectionLimits {
  /** Open connections, lingering ones included: past it, the connection doing the least is closed to make room. */
  readonly open: number;
  /** Open connections from one client address (IPv6: one /64): past it, that address's connection doing the least is closed. 0: no such bound. */
  readonly perAddress: number;
  /** Connections in their lingering close: past it, the one that has lingered longest is closed at once. */
  readonly lingering: number;
}

/**
 * The production limits, for one process on two cores. An open connection costs a few
 * kilobytes while idle, and up to the 1 MiB body limit while a body arrives: at most 1 GiB of
 * bodies at once. A browser opens 6 connections to a host, a proxy or a shared address a few
 * dozen to a few hundred: one address may hold a quarter of them. Lingering connections are
 * those answered early (or refused): a client that makes many of them cannot take more than an
 * eighth of the connections for it.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { open: 1024, perAddress: 256, lingering: 128 };

/** How long shutdown waits for in-flight requests before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long, once the server stops accepting connections, a connection with no request under way
 * may still deliver one (a request sent before the drain ended, still on its way) before it is
 * closed: longer than a busy client or server takes to get its bytes across.
 */
const LAST_REQUESTS_MS = 1000;

/** Where and how to serve. */
export interface ServeNodeOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly timeouts?: Partial<ServerTimeouts>;
  /** How long a closing connection keeps reading after an early answer. */
  readonly linger?: Partial<LingerBounds>;
  /** How many connections it holds at once: in all, from one address, lingering. */
  readonly connections?: Partial<ConnectionLimits>;
  /** The most of a request body the server keeps, as the API's body limit (1 MiB) by default. */
  readonly maxBodyBytes?: number;
  /**
   * Whether Hono's answers are built and written on the fast path (fast-globals.ts), true by
   * default. Off, the process's globals are never changed and every answer is Node's own
   * `Response`, written by @hono/node-server.
   */
  readonly fastPath?: boolean;
  /** How long a stop lets the requests in flight finish before it cuts their connections: 10 s by default. */
  readonly shutdownGraceMs?: number;
  /**
   * How long, once a stop has closed the listener, a connection with no request under way may
   * still deliver one, which a client sent before the stop: 1 s by default. Each stop waits that
   * long for the idle connections it then closes.
   */
  readonly lastRequestsMs?: number;
  /** Called once, as a stop cuts the connections of the requests still in flight past that bound (before it does). */
  readonly onCut?: () => void;
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
   * Drains (if `drain` was not called), stops accepting connections once those already on their
   * way are accepted, answers the requests still arriving on open connections for a second
   * (`Connection: close`), then closes idle connections and lets in-flight requests finish (for
   * 10 s at most from the call).
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
 * lives" in docs/architecture.md): with `fastPath` on, while the server is open the global
 * `Headers` and `Response` are stand-ins for Node's own that build light objects
 * (fast-globals.ts), and answers with a string body or none are written to Node directly
 * (direct-answers.ts); `close()` lets go of them. It throws at start-up if that path would not be
 * taken (@hono/node-server copying request headers, because it was loaded before the stand-ins).
 */
export async function serveNode(app: FetchApp, options: ServeNodeOptions): Promise<NodeServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const connections = new ClosingConnections({ ...DEFAULT_LINGER, ...options.linger }, limits.lingering);
  const budget = new ConnectionBudget(limits.open, limits.perAddress);
  const fast = options.fastPath ?? true;
  const { getRequestListener, RequestError } = await loadNodeServer(fast);
  const release = fast ? holdFastGlobals() : () => {};
  let listener: Listener;
  try {
    const listenerOptions = { hostname: options.host, overrideGlobalObjects: false, errorHandler: requestErrorResponse(SECURITY_HEADERS, RequestError) };
    if (fast) checkFastPath(getRequestListener);
    const direct = fast ? directAnswers(RESPONSE_ALREADY_SENT) : undefined;
    listener = getRequestListener((request, env) => directlyAnswered(app, request, env, direct), listenerOptions);
  } catch (error) {
    release();
    throw error;
  }
  // createAdaptorServer without its shortcut, for the errorHandler: requests the adapter cannot
  // translate answer JSON too.
  const server: Server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
    IncomingMessage: requestsWithBodyBuffer(options.maxBodyBytes ?? MAX_BODY_BYTES),
    ServerResponse: lingeringResponses(connections, (socket) => budget.answered(socket)),
    // Answered in JSON below rather than with Node's bare 400.
    requireHostHeader: false,
  });
  const open = new Set<Socket>();
  const accepted = { count: 0 };
  server.on('connection', (socket: Socket) => {
    // Node ends a connection after an answer that closes it with destroySoon(), which destroys it
    // as soon as the answer is written: every connection of this server lingers instead.
    socket.destroySoon = () => connections.linger(socket);
    accepted.count++;
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    budget.admit(socket);
  });
  const draining = { now: false };
  const serve = requestGate(connections, budget, draining, listener);
  server.on('request', serve);
  // Expect: 100-continue: `100 Continue` goes out when the body is read, not before: an answer
  // that needs no body (413 by Content-Length, 415, 401) goes out without inviting the upload.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    continueWhenRead(request, response);
    serve(request, response);
  });
  // Any other expectation is one this server cannot meet.
  server.on('checkExpectation', requestGate(connections, budget, draining, (_request, response) => answerWithJson(response, 'ExpectationFailed', SECURITY_HEADERS)));
  answerConnectWithJson(server, connections, SECURITY_HEADERS);
  answerClientErrorsWithJson(server, connections, SECURITY_HEADERS);
  // A client that takes none of its answers gets as long as it had to send a request.
  const stopCutting = cutStalledAnswers(open, timeouts.requestMs, timeouts.checkIntervalMs);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    stopCutting();
    release();
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const drain = () => {
    if (draining.now) return;
    draining.now = true;
    for (const socket of open) {
      const last = lastResponse(socket);
      // Requests parsed and waiting for their turn run first: the last of them closes the connection.
      if (last !== undefined && !last.headersSent && !requestsWaiting(socket)) closeAfter(connections, last);
    }
  };
  let closing: Promise<void> | undefined;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    drain,
    close: () => {
      drain();
      const bounds = { graceMs: options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, lastRequestsMs: options.lastRequestsMs ?? LAST_REQUESTS_MS };
      return (closing ??= stop(server, accepted, bounds, options.onCut).finally(() => {
        stopCutting();
        release();
      }));
    },
  };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;
type NodeServerModule = typeof HonoNodeServer;

/**
 * @hono/node-server, loaded (the first time) with the stand-ins held on the fast path: it reads
 * request headers from Node's request lazily only while the global `Headers` is the one it found
 * when it loaded (and copies them into a new `Headers` otherwise), so the fast path needs the
 * stand-in found. Off the fast path nothing touches the globals, not even while it loads: it then
 * finds Node's own `Headers`, and a fast server started later in the same process refuses to start
 * (`checkFastPath`).
 */
async function loadNodeServer(fast: boolean): Promise<NodeServerModule> {
  if (!fast) return import('@hono/node-server');
  const release = holdFastGlobals();
  try {
    return await import('@hono/node-server');
  } finally {
    release();
  }
}

/** A GET request as Node's parser hands it over, enough for @hono/node-server to build its request. */
const PROBE_REQUEST = { method: 'GET', url: '/', headers: { host: 'probe' }, rawHeaders: ['host', 'probe'], socket: {} };

/**
 * Throws unless the fast path is what requests will take: the stand-ins are the globals, and
 * @hono/node-server reads request headers lazily (a request run through a listener of its own, to
 * a handler that only looks at the headers' class, says which).
 */
function checkFastPath(getRequestListener: NodeServerModule['getRequestListener']): void {
  if (!fastGlobalsHeld()) throw new Error('serveNode: the fast path is not active: some other code replaced the global Headers or Response');
  let copied: boolean | undefined;
  const probe = getRequestListener(
    (request) => {
      copied = Object.getPrototypeOf(request.headers) === LightHeaders.prototype || Object.getPrototypeOf(request.headers) === globalThis.Headers.prototype;
      throw new Error('probe');
    },
    { overrideGlobalObjects: false, autoCleanupIncoming: false, errorHandler: () => undefined },
  );
  void probe(PROBE_REQUEST as unknown as IncomingMessage, { on() {} } as unknown as ServerResponse);
  if (copied !== false)
    throw new Error(
      'serveNode: the fast path is not active: @hono/node-server was loaded before serveNode with Node’s own Headers (by other code, or by a serveNode with fastPath: false), so it would copy every request’s headers; load it after, or pass fastPath: false',
    );
}

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
 * A request runs in its turn: when its connection has room among the answers its client has not
 * taken (backpressure.ts), else once it has. While the server drains, every request's answer
 * closes its connection. Each request that runs tells the connection budget that its connection
 * is busy again.
 */
function requestGate(connections: ClosingConnections, budget: ConnectionBudget, draining: { readonly now: boolean }, listener: Listener): Listener {
  const run: Listener = (request, response) => {
    const { socket } = request;
    if (dropAfterClose(connections, request)) return;
    budget.began(socket, request);
    lastResponses.set(socket, response);
    // The client asked to close (or spoke HTTP/1.0 without keep-alive), or the server drains
    // (and no request parsed before waits behind this one): nothing after this request runs.
    if (!response.shouldKeepAlive || (draining.now && !requestsWaiting(socket))) closeAfter(connections, response);
    if (request.headers.host === undefined && request.httpVersionMinor === 1) {
      connections.closeAfterAnswer(socket);
      answerWithJson(response, 'BadRequest', SECURITY_HEADERS, { Connection: 'close' });
      return;
    }
    listener(request, response);
  };
  return (request, response) => {
    if (dropAfterClose(connections, request)) return;
    if (inTurn(request.socket, request, response, run)) run(request, response);
  };
}

/**
 * Whether `request` came after an answer that closes its connection: parsed before the parser
 * stopped, it is neither run nor answered, and the parser stops now.
 */
function dropAfterClose(connections: ClosingConnections, request: IncomingMessage): boolean {
  if (!connections.closing(request.socket)) return false;
  dropRequestBody(request);
  connections.stopParsing(request.socket);
  return true;
}

/**
 * `app.fetch`, with every answer the direct writer can write (on the fast path) written to Node's
 * response at once; @hono/node-server is then told it was sent (its documented
 * `RESPONSE_ALREADY_SENT`) and writes every other answer itself. An answer ready before the request's body has all arrived waits
 * until the parser has run through what the socket has already received: a body sent with its
 * request (a `DELETE` with `{}`) is then complete, and the answer keeps the connection alive as
 * for any request read in full; otherwise it is an early answer, and closes it.
 */
function directlyAnswered(app: FetchApp, request: Request, env: HttpBindings | Http2Bindings, direct: DirectAnswers | undefined): Response | Promise<Response> {
  // A `node:http` server: its responses are `ServerResponse`s.
  const outgoing = env.outgoing as HttpBindings['outgoing'];
  const answered = (response: Response) => (direct !== undefined && direct.write(response, outgoing) ? direct.sent : response);
  const settled = (response: Response) => (bodyArriving(outgoing.req) ? afterThisRead().then(() => answered(response)) : answered(response));
  const answer = app.fetch(request, withNodeFacts(env as HttpBindings));
  return answer instanceof Promise ? answer.then(settled) : settled(answer);
}

function bodyArriving(request: IncomingMessage): boolean {
  return !request.complete && hasBody(request);
}

/**
 * Resolves once the parser has run through the bytes read so far (after this turn's I/O): the
 * event loop has polled for I/O, accepting pending connections and reading pending bytes.
 */
function afterThisRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Stops `server` without resetting a request sent before the stop. It accepts what waits in the
 * listen backlog (`accepted` counts the connections accepted so far) and stops listening; for
 * `lastRequestsMs` every connection with no request under way may still deliver one, which is
 * answered (with `Connection: close`, as every answer of the drain); then it closes the idle
 * connections, and every other one as it turns idle (after its answer); past `graceMs` it tells
 * `onCut` and cuts the rest.
 *
 * Requests are on their way when the drain ends, the more so as the drain makes every client
 * open a new connection for each request: a connection the kernel has established waits in the
 * backlog until the loop, perhaps busy, accepts it; a client that opened a connection has not
 * written yet; one wrote on a kept-alive connection while the loop was busy. Closing the
 * listener or such a connection then would make the kernel answer the request with a reset. So
 * the listener closes right after an event-loop poll that accepted nothing new (the backlog was
 * empty; under a stream of new connections, after `lastRequestsMs` at most), through
 * `net.Server`'s `close` (the class `http.Server` extends): Node's own `http.Server.close()`
 * would also close at once every connection with no request under way. Idle connections close
 * after the event loop's next poll, which reads what they received.
 */
async function stop(
  server: Server,
  accepted: { readonly count: number },
  { graceMs, lastRequestsMs }: { readonly graceMs: number; readonly lastRequestsMs: number },
  onCut: (() => void) | undefined,
): Promise<void> {
  const acceptingUntil = performance.now() + lastRequestsMs;
  for (let seen = -1; seen !== accepted.count && performance.now() < acceptingUntil; ) {
    seen = accepted.count;
    await afterThisRead();
  }
  const closed = new Promise<void>((resolve) => Reflect.apply(NetServer.prototype.close, server, [() => resolve()]));
  // Keep-alive connections turn idle as their last response ends: close them as they do.
  let sweep: NodeJS.Timeout | undefined;
  const lastRequests = setTimeout(() => {
    sweep = setInterval(() => void afterThisRead().then(() => server.closeIdleConnections()), 50);
  }, lastRequestsMs);
  const grace = setTimeout(() => {
    onCut?.();
    server.closeAllConnections();
  }, graceMs);
  await closed;
  clearTimeout(lastRequests);
  clearInterval(sweep);
  clearTimeout(grace);
}

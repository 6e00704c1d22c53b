import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECURITY_HEADERS } from '../response/security-headers.js';
import { answerClientErrorsWithJson, requestErrorResponse } from './client-error-response.js';
import { installDirectAnswers, type DirectAnswers } from './direct-answers.js';
import { installLightHeaders } from './light-headers.js';
import { DEFAULT_LINGER, lingeringResponses, type LingerBounds } from './lingering-close.js';

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
}

/** A listening Node server. */
export interface NodeServer {
  /** `http://HOST:PORT` as bound (the real port when the port asked for was 0). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and lets in-flight requests finish (for 10 s at most). */
  close(): Promise<void>;
}

/** Anything with a fetch handler: the Hono app `createHttpApp` returns. */
export interface FetchApp {
  fetch(request: Request, env: unknown): Response | Promise<Response>;
}

/**
 * Serves `app` on a `node:http` server through @hono/node-server's request listener: the
 * timeouts above, JSON answers for requests Node's parser or the adapter refuse, and early
 * answers that reach clients which write their whole body first (a lingering close).
 *
 * This is where inkwell is made fast on Node, so that the app is plain Hono (see "Where speed
 * lives" in docs/architecture.md): the global `Headers` Hono builds answers with is
 * `LightHeaders`, and answers with a string body are written to Node directly (direct-answers.ts).
 */
export async function serveNode(app: FetchApp, options: ServeNodeOptions): Promise<NodeServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const linger = { ...DEFAULT_LINGER, ...options.linger };
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
  const server: Server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      ServerResponse: lingeringResponses(linger),
    },
    listener,
  );
  answerClientErrorsWithJson(server, linger, SECURITY_HEADERS);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    close: () => (closing ??= stop(server)),
  };
}

/**
 * `app.fetch`, with every answer the direct writer can write written to Node's response at once;
 * @hono/node-server is then told it was sent (its documented `RESPONSE_ALREADY_SENT`) and writes
 * every other answer itself.
 */
function directlyAnswered(app: FetchApp, request: Request, env: HttpBindings | Http2Bindings, direct: DirectAnswers): Response | Promise<Response> {
  // A `node:http` server: its responses are `ServerResponse`s.
  const outgoing = env.outgoing as HttpBindings['outgoing'];
  const answered = (response: Response) => (direct.write(response, outgoing) ? direct.sent : response);
  const answer = app.fetch(request, env);
  return answer instanceof Promise ? answer.then(answered) : answered(answer);
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

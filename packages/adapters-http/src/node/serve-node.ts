import { getRequestListener } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { securityHeaderRecord } from '../middleware/security-headers.js';
import { answerClientErrorsWithJson, requestErrorResponse } from './client-error-response.js';
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
 */
export async function serveNode(app: FetchApp, options: ServeNodeOptions): Promise<NodeServer> {
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const linger = { ...DEFAULT_LINGER, ...options.linger };
  // Hono's standard `c.header`, `c.json` and middleware build response headers with the global
  // `Headers`; this server makes that one cheap (light-headers.ts), as @hono/node-server makes
  // `Request` and `Response` cheap when its listener is created below.
  installLightHeaders();
  const answerHeaders = await securityHeaderRecord();
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
    getRequestListener(app.fetch, { hostname: options.host, errorHandler: requestErrorResponse(answerHeaders) }),
  );
  answerClientErrorsWithJson(server, linger, answerHeaders);

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

async function stop(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections turn idle as their last response ends: close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(grace);
}

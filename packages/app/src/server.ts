import { getRequestListener } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { answerClientErrorsWithJson, requestErrorResponse } from './client-error-response.js';
import type { Config } from './config.js';
import { createInkwell, type InkwellOverrides } from './inkwell.js';
import { DEFAULT_LINGER, lingeringResponses, type LingerBounds } from './lingering-close.js';

/** How long shutdown waits for in-flight requests before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;

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

/** What tests may change about a server; production passes nothing. */
export interface ServerOptions {
  readonly timeouts?: Partial<ServerTimeouts>;
  /** How long and how much a closing connection reads after an early answer (lingering-close.ts). */
  readonly linger?: Partial<LingerBounds>;
  readonly overrides?: InkwellOverrides;
}

/** A listening inkwell. */
export interface RunningServer {
  /** `http://HOST:PORT` as bound (the real port when PORT=0). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, lets in-flight requests finish (bounded), then closes the store. */
  close(): Promise<void>;
}

/** Builds inkwell from `config` and serves it on `@hono/node-server`. */
export async function startServer(config: Config, logger: Logger, options: ServerOptions = {}): Promise<RunningServer> {
  const inkwell = await createInkwell(config, logger, options.overrides);
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts };
  const linger = { ...DEFAULT_LINGER, ...options.linger };
  // createAdaptorServer without its shortcut, for the errorHandler: requests the adapter cannot
  // translate answer JSON too.
  const server: Server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Answers given before the body was read close with a lingering close, so they arrive.
      ServerResponse: lingeringResponses(linger),
    },
    getRequestListener(inkwell.app.fetch, { hostname: config.host, errorHandler: requestErrorResponse }),
  );
  answerClientErrorsWithJson(server, linger);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await inkwell.close();
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, store: inkwell.store.label }, `inkwell listening on ${url} (store: ${inkwell.store.label})`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close: () => (closing ??= stop(server, () => inkwell.close())),
  };
}

async function stop(server: Server, closeStore: () => Promise<void>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections turn idle as their last response ends: close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(grace);
  await closeStore();
}

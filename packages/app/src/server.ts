import { serveNode, type LingerBounds, type Logger, type ServerTimeouts } from '@inkwell/adapters-http';
import type { Config } from './config.js';
import { createInkwell, type InkwellOverrides } from './inkwell.js';

/** What tests may change about a server; production passes nothing. */
export interface ServerOptions {
  readonly timeouts?: Partial<ServerTimeouts>;
  readonly linger?: Partial<LingerBounds>;
  /** How long a stop lets requests in flight finish before it cuts them (10 s in production). */
  readonly shutdownGraceMs?: number;
  /** How long a stop lets idle connections deliver a request still on its way (1 s in production). */
  readonly lastRequestsMs?: number;
  readonly overrides?: InkwellOverrides;
}

/** A listening inkwell. */
export interface RunningServer {
  /** `http://HOST:PORT` as bound (the real port when PORT=0). */
  readonly url: string;
  readonly port: number;
  /**
   * Starts the drain before a stop: `GET /health` answers 503 `stopping`, and the server keeps
   * serving, every answer closing its connection (`NodeServer.drain`).
   */
  drain(): void;
  /** Drains if it was not, stops accepting connections, lets in-flight requests finish (bounded), then closes the store. */
  close(): Promise<void>;
}

/** Builds inkwell from `config`, serves it on HOST:PORT and says so in one line. */
export async function startServer(config: Config, logger: Logger, options: ServerOptions = {}): Promise<RunningServer> {
  const inkwell = await createInkwell(config, logger, options.overrides);
  let served;
  try {
    served = await serveNode(inkwell.app, {
      host: config.host,
      port: config.port,
      timeouts: { keepAliveMs: config.keepAliveTimeoutSeconds * 1000, ...options.timeouts },
      linger: options.linger,
      connections: config.connections,
      fastPath: config.fastPath,
      shutdownGraceMs: options.shutdownGraceMs,
      lastRequestsMs: options.lastRequestsMs,
      onCut: () => {
        for (const { requestId, method, path } of inkwell.requestsInFlight.cut())
          logger.warn({ requestId, method, path }, `request cut at shutdown: ${method} ${path} was still running when the bound on requests in flight ran out`);
      },
    });
  } catch (error) {
    await inkwell.close();
    throw error;
  }
  const { url, port } = served;
  inkwell.mail?.listening(port);
  logger.info(
    { url, store: inkwell.store.label, postsAccess: config.postsAccess },
    `inkwell listening on ${url} (store: ${inkwell.store.label}, posts: ${config.postsAccess})`,
  );
  const drain = () => {
    inkwell.markStopping();
    served.drain();
  };
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    drain,
    close: () => {
      drain();
      return (closing ??= served.close().then(() => inkwell.close()));
    },
  };
}

import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createInkwell } from './inkwell.js';

/** How long shutdown waits for in-flight requests before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;

/** A listening inkwell. */
export interface RunningServer {
  /** `http://HOST:PORT` as bound (the real port when PORT=0). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, lets in-flight requests finish (bounded), then closes the store. */
  close(): Promise<void>;
}

/** Builds inkwell from `config` and serves it on `@hono/node-server`. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const inkwell = await createInkwell(config, logger);
  const server = createAdaptorServer({
    fetch: inkwell.app.fetch,
    hostname: config.host,
    serverOptions: {
      // Bounded waits, so slow or stalled clients cannot hold connections open indefinitely.
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
    },
  }) as Server;

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

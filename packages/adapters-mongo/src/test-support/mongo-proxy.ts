import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP proxy in front of a MongoDB server that a test can cut and restore, to play a database outage. */
export interface MongoProxy {
  /** A connection string to the server through the proxy (a direct connection, so no discovery bypasses it). */
  readonly url: string;
  /** Drops every open connection and stops accepting new ones, as if the database went away. */
  goDown(): Promise<void>;
  /** Accepts connections again, on the same port. */
  comeBack(): Promise<void>;
  /** Stops the proxy for good. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to the single-host MongoDB at `targetUrl` (credentials and options are kept).
 * Throws for URLs it cannot proxy (several hosts, `mongodb+srv`).
 */
export async function startMongoProxy(targetUrl: string): Promise<MongoProxy> {
  const target = new URL(targetUrl);
  if (target.protocol !== 'mongodb:') throw new Error('startMongoProxy needs a single-host mongodb:// URL.');
  const targetHost = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const targetPort = Number(target.port || 27017);
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  async function listen(port: number): Promise<number> {
    const listening = createServer((downstream) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [downstream, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          sockets.delete(socket);
          downstream.destroy();
          upstream.destroy();
        });
      }
      downstream.pipe(upstream).pipe(downstream);
    });
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', resolve);
    });
    return (listening.address() as AddressInfo).port;
  }

  async function stop(): Promise<void> {
    const stopping = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
  }

  const port = await listen(0);
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${port}`;
  if (url.pathname === '') url.pathname = '/';
  url.searchParams.set('directConnection', 'true');

  return {
    url: url.toString(),
    goDown: stop,
    comeBack: async () => {
      if (!server) await listen(port);
    },
    close: stop,
  };
}

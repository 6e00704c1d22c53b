import { DEFAULT_SERVER_TIMEOUTS, type LingerBounds, type ServerTimeouts } from '@inkwell/adapters-http';
import { readConfig, startServer, type RunningServer, type Store } from '@inkwell/app';
import { fakePasswordHasher, manualClock, type ManualClock } from '@inkwell/domain/testing';
import { TEST_JWT_SECRET } from './fixtures.js';
import { capturedPino, type LogCapture } from './logs.js';
import { countingStore, type RepositoryCalls } from './stores.js';

/** A real inkwell on a socket of 127.0.0.1 with a fake hasher and a manual clock. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly timeouts: ServerTimeouts;
  readonly clock: ManualClock;
  readonly hasher: ReturnType<typeof fakePasswordHasher>;
  readonly calls: RepositoryCalls;
  readonly log: LogCapture;
  readonly server: RunningServer;
  /** `fetch` against the server with a JSON body. */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a test server over `store` with `env` added to a test configuration. */
export async function startTestServer(
  store: Store,
  env: Record<string, string> = {},
  options: { timeouts?: Partial<ServerTimeouts>; linger?: Partial<LingerBounds>; hasher?: 'fake' | 'real' } = {},
): Promise<TestServer> {
  const clock = manualClock(Date.now());
  const hasher = fakePasswordHasher();
  const counted = countingStore(store);
  const { logger, capture } = capturedPino();
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DB_URL: 'memory:',
    JWT_SECRET: TEST_JWT_SECRET,
    NODE_ENV: 'test',
    HASH_WORKERS: '1',
    ...env,
  });
  const server = await startServer(config, logger, {
    timeouts: options.timeouts,
    linger: options.linger,
    overrides: { store: counted.store, clock, ...(options.hasher === 'real' ? {} : { hasher }) },
  });
  return {
    url: server.url,
    port: server.port,
    timeouts: { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts },
    clock,
    hasher,
    calls: counted.calls,
    log: capture,
    server,
    send: (method, path, body, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      }),
    close: () => server.close(),
  };
}

/**
 * A server the hardening suites drive over real sockets: a `TestServer` in this process, or a
 * spawned server process (`startSpawnedServer`), which counts no repository calls.
 */
export interface ServedInkwell {
  readonly url: string;
  readonly port: number;
  readonly timeouts: ServerTimeouts;
  readonly log: LogCapture;
  /** Repository calls, when the server runs in this process. */
  readonly calls?: RepositoryCalls;
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Where a hardening suite gets its server. */
export interface ServerTarget {
  readonly label: string;
  start(): Promise<ServedInkwell>;
}


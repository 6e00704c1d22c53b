import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import { fakePasswordHasher, manualClock, type ManualClock } from '@inkwell/domain/testing';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { readConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { LingerBounds } from '../lingering-close.js';
import { DEFAULT_SERVER_TIMEOUTS, startServer, type RunningServer, type ServerTimeouts } from '../server.js';
import { memoryStore, type Store } from '../store.js';
import { emptyMongoStore } from './mongo-stores.js';

/** The hardening suites' signing secret (over 32 bytes). */
export const HARDENING_JWT_SECRET = 'inkwell-hardening-test-secret-0123456789abcdef';

/** Where a suite gets a store over empty data; run once per server. */
export interface StoreFactory {
  readonly label: string;
  open(): Promise<Store>;
}

/** The in-memory store, new for every server. */
export const memoryStores: StoreFactory = { label: 'memory', open: async () => memoryStore() };

/**
 * The MongoDB store over the test file's database (`mongo()` inside hooks and tests), emptied
 * for every server; closing it leaves the file's client open for the next one.
 */
export function mongoStores(mongo: () => TestMongo): StoreFactory {
  return { label: 'mongodb', open: () => emptyMongoStore(mongo().db) };
}

/** Calls made to a store's repositories, by `users.findByEmail`-style name. */
export interface RepositoryCalls {
  readonly counts: Map<string, number>;
  total(): number;
  reset(): void;
}

/** Wraps a store so every repository call is counted (for "rejected before any query" checks). */
export function countingStore(store: Store): { store: Store; calls: RepositoryCalls } {
  const counts = new Map<string, number>();
  const wrap = <R extends object>(area: string, repository: R): R =>
    new Proxy(repository, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const name = `${area}.${String(property)}`;
        return (...args: unknown[]) => {
          counts.set(name, (counts.get(name) ?? 0) + 1);
          return Reflect.apply(value, target, args);
        };
      },
    });
  return {
    store: { ...store, users: wrap('users', store.users), posts: wrap('posts', store.posts) },
    calls: {
      counts,
      total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
      reset: () => counts.clear(),
    },
  };
}

/** Every line a pino logger wrote, parsed, kept in memory. */
export interface LogCapture {
  readonly lines: string[];
  records(): Record<string, unknown>[];
}

/** A pino logger (inkwell's own, redaction included) writing into memory. */
export function capturedPino(level: 'info' | 'silent' = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const capture: LogCapture = { lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  return { logger: createLogger(level, stream), capture };
}

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
    JWT_SECRET: HARDENING_JWT_SECRET,
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

/** A response read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Parses the first HTTP/1.1 response in `text`, or null when its head is not complete yet. */
export function parseRawResponse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = text.slice(end + 4, end + 4 + length);
  if (Buffer.byteLength(body) < length) return null;
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** A raw TCP connection to the server, for what `fetch` cannot send (or would fix up). */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Resolves with the first complete response; rejects after `timeoutMs`. */
  response(timeoutMs?: number): Promise<RawResponse>;
  /** Resolves when the server has closed the connection (end, reset or close), with the time it happened. */
  readonly closed: Promise<number>;
  /**
   * Resolves when the connection is gone for good, with the time: with `halfOpen`, the server's
   * FIN alone does not end it; its reset (or our own end) does.
   */
  readonly gone: Promise<number>;
  /** Bytes handed to the socket so far. */
  readonly written: () => number;
  write(data: string | Buffer): boolean;
}

/**
 * Opens a raw connection to 127.0.0.1:`port`. With `halfOpen`, the client keeps its side open
 * (and may keep sending) after the server's FIN, as an uploading client does.
 */
export function rawConnection(port: number, options: { halfOpen?: boolean } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: options.halfOpen ?? false });
    let text = '';
    let written = 0;
    const waiters = new Set<() => void>();
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (const wake of waiters) wake();
    });
    const closed = new Promise<number>((done) => {
      const finish = () => done(performance.now());
      socket.once('end', finish);
      socket.once('close', finish);
    });
    const gone = new Promise<number>((done) => socket.once('close', () => done(performance.now())));
    socket.on('error', () => undefined); // a reset after the server answered is expected
    closed.then(() => {
      for (const wake of waiters) wake();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed,
        gone,
        written: () => written,
        write: (data) => {
          written += typeof data === 'string' ? Buffer.byteLength(data, 'latin1') : data.byteLength;
          return socket.write(data);
        },
        response: (timeoutMs = 10_000) =>
          new Promise<RawResponse>((done, fail) => {
            const check = () => {
              const parsed = parseRawResponse(text);
              if (parsed) {
                finish();
                done(parsed);
              } else if (socket.destroyed) {
                finish();
                fail(new Error(`connection closed without a complete response; got ${JSON.stringify(text.slice(0, 300))}`));
              }
            };
            const timer = setTimeout(() => {
              finish();
              fail(new Error(`no response within ${timeoutMs} ms; got ${JSON.stringify(text.slice(0, 300))}`));
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

import { connect, type Socket } from 'node:net';

/** A response read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Parses the first HTTP/1.1 response in `text`, or null when its head is not complete yet. */
export function parseRawResponse(text: string): RawResponse | null {
  return parseRawResponses(text)[0] ?? null;
}

/**
 * Every complete HTTP/1.1 response in `text`, in order, interim ones (`100 Continue`) included;
 * a body is framed by its `Content-Length` (every answer of inkwell's has one, or no body).
 */
export function parseRawResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return responses;
    const [statusLine = '', ...headerLines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    if (Buffer.byteLength(body, 'latin1') < length) return responses;
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
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
  /** With `readLater`, starts reading what the kernel has kept; otherwise reading has begun already. */
  startReading(): void;
}

/**
 * Opens a raw connection to 127.0.0.1:`port`. With `halfOpen`, the client keeps its side open
 * (and may keep sending) after the server's FIN, as an uploading client does. With `readLater`,
 * it reads nothing until `startReading()`: what the server sends stays in the kernel, where a
 * reset can still discard it, as for a client that writes its whole request before reading.
 */
export function rawConnection(port: number, options: { halfOpen?: boolean; readLater?: boolean } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: options.halfOpen ?? false });
    let text = '';
    let written = 0;
    const waiters = new Set<() => void>();
    const read = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (const wake of waiters) wake();
    };
    // Paused before it connects, a socket never starts reading from the kernel (not even into
    // its own buffer) until it is resumed.
    if (options.readLater) socket.pause();
    else socket.on('data', read);
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
        startReading: () => {
          if (socket.listenerCount('data') > 0) return;
          socket.on('data', read);
          socket.resume();
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

/** What one raw connection got back: its answers in order, and whether the server closed it. */
export interface RawExchange {
  readonly responses: RawResponse[];
  readonly closedByServer: boolean;
}

/**
 * Writes `segments` on a new connection to 127.0.0.1:`port` (each its own write, one turn of the
 * event loop apart), then waits until `answers` final answers came back (not counting
 * `100 Continue`), the server closed the connection, or the connection had nothing to say for
 * `quietMs`; then closes it.
 */
export async function rawExchange(port: number, segments: readonly (string | Buffer)[], answers: number, quietMs = 1_000): Promise<RawExchange> {
  const conn = await rawConnection(port);
  for (const segment of segments) {
    if (conn.socket.destroyed) break;
    conn.write(segment);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const finals = () => parseRawResponses(conn.received()).filter((response) => response.status >= 200);
  let closedByServer = false;
  void conn.closed.then(() => (closedByServer = true));
  let lastLength = -1;
  let quietSince = performance.now();
  while (!closedByServer && finals().length < answers && performance.now() - quietSince < quietMs) {
    await sleep(10);
    if (conn.received().length !== lastLength) {
      lastLength = conn.received().length;
      quietSince = performance.now();
    }
  }
  // A server that closes after its last answer does so at once: give it the moment to.
  if (!closedByServer) await Promise.race([conn.closed, sleep(100)]);
  conn.socket.destroy();
  return { responses: parseRawResponses(conn.received()), closedByServer };
}

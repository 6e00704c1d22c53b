// The facts node-internals.ts relies on, checked against the Node that runs the tests, on plain
// `node:http` servers: if a Node release changes one of them, a test here fails.
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detachParser, queuedInKernelWrites, responseInFlight, stopReading } from './node-internals.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listening(created: Server): Promise<number> {
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return (created.address() as AddressInfo).port;
}

/** A raw connection, and everything it received so far. */
async function rawClient(port: number): Promise<{ socket: Socket; received: () => string }> {
  const socket = connect({ port, host: '127.0.0.1' });
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text };
}

/** A promise and the function that resolves it: a latch between the server's events and the test. */
function latch<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe("what the serving layer relies on in Node's HTTP server", () => {
  it("1. the parser hands a request's body to the request's push, a piece per chunk, then push(null)", async () => {
    const pushed: (string | null)[] = [];
    const ended = latch();
    class Recording extends IncomingMessage {
      override push(piece: Buffer | null, encoding?: BufferEncoding): boolean {
        pushed.push(piece === null ? null : piece.toString('latin1'));
        if (piece === null) ended.open();
        return super.push(piece, encoding);
      }
    }
    const port = await listening(createServer({ IncomingMessage: Recording }, (request, response) => request.resume().on('end', () => response.end())));
    const client = await rawClient(port);
    client.socket.write('POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n2\r\nbc\r\n1\r\nd\r\n0\r\n\r\n');
    await ended.promise;
    client.socket.destroy();
    expect(pushed).toEqual(['a', 'bc', 'd', null]);
  });

  it('2. with its own data listeners removed and one added, the parser sees nothing more the client sends', async () => {
    const requests: string[] = [];
    const discarded: string[] = [];
    const detached = latch();
    const more = latch();
    const port = await listening(
      createServer((request: IncomingMessage, response: ServerResponse) => {
        requests.push(`${request.method} ${request.url}`);
        response.end();
        setImmediate(() => {
          detachParser(request.socket, (chunk) => {
            discarded.push(chunk.toString('latin1'));
            more.open();
          });
          detached.open();
        });
      }),
    );
    const client = await rawClient(port);
    client.socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    await detached.promise;
    const second = 'GET /second HTTP/1.1\r\nHost: x\r\n\r\n';
    client.socket.write(second);
    await more.promise;
    client.socket.destroy();
    expect({ requests, discarded: discarded.join('') }).toEqual({ requests: ['GET /first'], discarded: second });
  });

  it('3. the response a server socket writes is the one in flight until it ends, then none', async () => {
    const seen = latch<{ during: boolean; after: ServerResponse | null }>();
    const port = await listening(
      createServer((request, response) => {
        const during = responseInFlight(request.socket) === response;
        response.once('close', () => seen.open({ during, after: responseInFlight(request.socket) }));
        response.end('ok');
      }),
    );
    const client = await rawClient(port);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await seen.promise).toEqual({ during: true, after: null });
    client.socket.destroy();
  });

  it('4. a response is detached from its socket once written in full, before the next pipelined one is handed the socket', async () => {
    const seen: string[] = [];
    const done = latch();
    class Recording extends ServerResponse {
      override detachSocket(socket: Socket): void {
        seen.push(`detached ${this.req.url} ${responseInFlight(socket) === this} ${this.writableFinished}`);
        super.detachSocket(socket);
        if (seen.filter((line) => line.startsWith('detached')).length === 2) done.open();
      }
    }
    const port = await listening(
      createServer({ ServerResponse: Recording }, (request, response) => {
        seen.push(`started ${request.url}`);
        // The first answers last: the second waits for it.
        setTimeout(() => response.end('ok'), request.url === '/first' ? 100 : 0);
      }),
    );
    const client = await rawClient(port);
    client.socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    await done.promise;
    client.socket.destroy();
    expect(seen).toEqual(['started /first', 'started /second', 'detached /first true true', 'detached /second true true']);
  });

  it('5. a server socket stopped on its first turn, when Node resumes it, is not read until let go and resumed', async () => {
    let held = true;
    const requests: string[] = [];
    const port = await listening(
      createServer((request, response) => {
        requests.push(request.url ?? '');
        response.end();
      }),
    );
    let accepted: Socket | undefined;
    server?.on('connection', (socket: Socket) => {
      accepted = socket;
      stopReading(socket, () => held);
    });
    const client = await rawClient(port);
    client.socket.write('GET /held HTTP/1.1\r\nHost: x\r\n\r\n');
    // Nothing comes of it while held: a run of event-loop turns with the bytes there to read.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toEqual([]);
    held = false;
    accepted?.resume();
    await vi.waitFor(() => expect(requests).toEqual(['/held']), { timeout: 5_000 });
    client.socket.destroy();
  });

  it("6. fetch's Headers conversion calls an iterable's iterator through its bind, and takes Node's own Headers as spelled", async () => {
    const bound: unknown[] = [];
    const entries = function* (this: unknown) {
      yield ['X-Iterated', 'v'] as [string, string];
    };
    // The converter finds `bind` where a function finds it: on the function, then Function.prototype.
    Object.defineProperty(entries, 'bind', {
      value(thisArg: unknown) {
        bound.push(thisArg);
        return Function.prototype.bind.call(entries, thisArg);
      },
    });
    const init = { [Symbol.iterator]: entries };
    expect([...new Headers(init as unknown as ConstructorParameters<typeof Headers>[0])]).toEqual([['x-iterated', 'v']]);
    expect(bound).toEqual([init]);

    const received = latch<string>();
    const port = await listening(createServer());
    server?.on('connection', (socket: Socket) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) {
          received.open(text);
          socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
        }
      });
    });
    await fetch(`http://127.0.0.1:${port}/`, { headers: new Headers({ 'X-Custom-Case': 'v' }) });
    expect(await received.promise).toContain('\r\nX-Custom-Case: v\r\n');
  });

  it('7. what the kernel has not taken of a large write is counted on the handle while the write is under way, and is 0 once all is taken', async () => {
    const written = latch<Socket>();
    const port = await listening(createServer());
    server?.on('connection', (socket: Socket) => written.open(socket));
    const { socket: client } = await rawClient(port);
    client.pause();
    const serverSide = await written.promise;
    const size = 16 * 1024 * 1024;
    let done = false;
    serverSide.write(Buffer.alloc(size), () => (done = true));
    const queued = [queuedInKernelWrites(serverSide)];
    // Far more than the kernel's buffers hold for a client that reads nothing: most of it waits.
    expect(queued[0]).toBeGreaterThan(size / 2);
    // Unaltered by the write while under way, however much the kernel takes.
    expect(serverSide.writableLength).toBe(size);
    client.resume();
    await vi.waitFor(() => expect(done).toBe(true), { timeout: 10_000 });
    expect(queuedInKernelWrites(serverSide)).toBe(0);
    expect(serverSide.writableLength).toBe(0);
  });
});

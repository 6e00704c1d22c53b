import { Hono } from 'hono';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBodyAtMost } from '../request/request-facts.js';
import { CLOSE_DELAY_MS } from './connection-budget.js';
import { serveNode, type ConnectionLimits, type NodeServer } from './serve-node.js';

/** A promise and the function that resolves it: a latch between the server's handlers and the test. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** `GET /now` answers at once, `GET /held` once the test opens the latch, `POST /read` once its body has arrived. */
function app(held: Promise<void>) {
  return new Hono()
    .get('/now', (c) => c.json({ ok: true }))
    .get('/held', async (c) => {
      await held;
      return c.json({ held: true });
    })
    .post('/read', async (c) => c.json({ bytes: (await readBodyAtMost(c, 1024 * 1024)).byteLength }));
}

/** A raw client connection from `localAddress`: what it received, and whether the server ended it. */
async function client(port: number, localAddress = '127.0.0.1') {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
  let text = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    socket,
    received: () => text,
    closed: () => closed,
    get: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`),
  };
}
type Client = Awaited<ReturnType<typeof client>>;

const answered = (conn: Client) => (conn.received().match(/HTTP\/1\.1 200/g) ?? []).length;

let server: NodeServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const conn of clients.splice(0)) conn.socket.destroy();
  // Once the server has seen them go: a request whose body was still arriving then ends with it
  // (during a stop, the server waits for the answer of a request whose client it has not seen go).
  await new Promise((resolve) => setTimeout(resolve, 200));
  await server?.close();
  server = undefined;
}, 20_000);

async function serve(connections: Partial<ConnectionLimits>, held = Promise.resolve()) {
  server = await serveNode(app(held), { host: '127.0.0.1', port: 0, connections: { lingering: 8, ...connections } });
  return server.port;
}

async function open(port: number, localAddress?: string): Promise<Client> {
  const conn = await client(port, localAddress);
  clients.push(conn);
  return conn;
}

/** A connection that has had one answer and is idle, kept alive. */
async function idle(port: number, localAddress?: string): Promise<Client> {
  const conn = await open(port, localAddress);
  conn.get('/now');
  await vi.waitFor(() => expect(answered(conn)).toBe(1));
  return conn;
}

describe('the connection budget: at CONNECTIONS_MAX a newcomer is served, and the connection doing the least makes room', () => {
  it('closes an idle kept-alive connection first, the one idle longest, at once', async () => {
    const port = await serve({ open: 3, perAddress: 0 });
    const idlest = await idle(port);
    const slow = await open(port);
    slow.socket.write('GET /now HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const later = await idle(port);
    const newcomer = await open(port);
    newcomer.get('/now');
    await vi.waitFor(() => expect(answered(newcomer)).toBe(1));
    await vi.waitFor(() => expect(idlest.closed()).toBe(true), { timeout: CLOSE_DELAY_MS / 2 });
    expect([slow.closed(), later.closed()]).toEqual([false, false]);
  });

  it('then the connection whose request has arrived slowest, reset a second later, reading nothing of it meanwhile', async () => {
    const port = await serve({ open: 3, perAddress: 0 });
    const slowest = await open(port);
    slowest.socket.write('GET /now HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const body = await open(port);
    body.socket.write('POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
    const fresh = await open(port);
    const newcomer = await open(port);
    newcomer.get('/now');
    await vi.waitFor(() => expect(answered(newcomer)).toBe(1));
    // Its request ends now, and is not read: nothing answers it before the reset.
    slowest.socket.write('1\r\n\r\n');
    const closedAt = performance.now();
    await vi.waitFor(() => expect(slowest.closed()).toBe(true), { timeout: CLOSE_DELAY_MS * 3 });
    expect(performance.now() - closedAt).toBeGreaterThan(CLOSE_DELAY_MS / 2);
    expect(slowest.received()).toBe('');
    expect([body.closed(), fresh.closed()]).toEqual([false, false]);
  });

  it('keeps a body that arrives at 16 KiB/s or more ahead of a newer connection that sends nothing', async () => {
    const port = await serve({ open: 2, perAddress: 0 });
    const uploading = await open(port);
    uploading.socket.write('POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n');
    // 64 KiB at once: four seconds' worth at 16 KiB/s.
    uploading.socket.write(Buffer.alloc(64 * 1024, 0x20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const silent = await open(port);
    const newcomer = await open(port);
    newcomer.get('/now');
    await vi.waitFor(() => expect(answered(newcomer)).toBe(1));
    await vi.waitFor(() => expect(silent.closed()).toBe(true), { timeout: CLOSE_DELAY_MS * 3 });
    expect(uploading.closed()).toBe(false);
  });

  it('never closes a connection whose request the server is working on: with only such, the newcomer is closed unanswered', async () => {
    const held = latch();
    const port = await serve({ open: 2, perAddress: 0 }, held.promise);
    const working = [await open(port), await open(port)];
    for (const conn of working) conn.get('/held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const newcomer = await open(port);
    newcomer.get('/now');
    await vi.waitFor(() => expect(newcomer.closed()).toBe(true));
    expect(newcomer.received()).toBe('');
    held.open();
    for (const conn of working) await vi.waitFor(() => expect(answered(conn)).toBe(1));
  });
});

describe('the connection budget: one client address is served on at most CONNECTIONS_PER_ADDRESS_MAX connections', () => {
  it('keeps the address’s next connection waiting, unread, until one of its served ones ends; other addresses are served meanwhile', async () => {
    const gate = latch();
    const port = await serve({ open: 10, perAddress: 2 }, gate.promise);
    const served = [await open(port, '127.0.0.2'), await open(port, '127.0.0.2')];
    for (const conn of served) conn.get('/held');
    const waiting = await open(port, '127.0.0.2');
    waiting.get('/now');
    const other = await open(port, '127.0.0.3');
    other.get('/now');
    await vi.waitFor(() => expect(answered(other)).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect({ waiting: answered(waiting), closed: waiting.closed() }).toEqual({ waiting: 0, closed: false });
    served[0]?.socket.destroy();
    await vi.waitFor(() => expect(answered(waiting)).toBe(1));
    gate.open();
  });

  it('gives an address’s newcomer the place of its connection idle longest, when the address is at its bound', async () => {
    const port = await serve({ open: 10, perAddress: 2 });
    const [idlest, idler] = [await idle(port, '127.0.0.2'), await idle(port, '127.0.0.2')];
    const newcomer = await open(port, '127.0.0.2');
    newcomer.get('/now');
    await vi.waitFor(() => expect(answered(newcomer)).toBe(1));
    await vi.waitFor(() => expect(idlest?.closed()).toBe(true));
    expect(idler?.closed()).toBe(false);
  });

  it('serves an address’s waiting connection as soon as a served one of the address is idle, which then gives its place up', async () => {
    const gate = latch();
    const port = await serve({ open: 10, perAddress: 1 }, gate.promise);
    const busy = await open(port, '127.0.0.2');
    busy.get('/held');
    const waiting = await open(port, '127.0.0.2');
    waiting.get('/now');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered(waiting)).toBe(0);
    gate.open();
    await vi.waitFor(() => expect(answered(waiting)).toBe(1));
    await vi.waitFor(() => expect(busy.closed()).toBe(true));
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200/);
  });

  it('makes room at CONNECTIONS_MAX by closing a waiting connection first, so a newcomer from another address is served', async () => {
    const gate = latch();
    const port = await serve({ open: 3, perAddress: 1 }, gate.promise);
    const served = await open(port, '127.0.0.2');
    served.get('/held');
    const waitingLongest = await open(port, '127.0.0.2');
    const waiting = await open(port, '127.0.0.2');
    const newcomer = await open(port, '127.0.0.3');
    newcomer.get('/now');
    await vi.waitFor(() => expect(answered(newcomer)).toBe(1));
    await vi.waitFor(() => expect(waitingLongest.closed()).toBe(true), { timeout: CLOSE_DELAY_MS * 3 });
    expect([served.closed(), waiting.closed()]).toEqual([false, false]);
    gate.open();
  });
});

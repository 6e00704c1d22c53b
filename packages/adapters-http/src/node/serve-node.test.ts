import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBodyAtMost } from '../request/request-facts.js';
import { UNTAKEN_ANSWERS_MAX } from './backpressure.js';
import { serveNode, type FetchApp, type NodeServer } from './serve-node.js';

/** A promise and the function that resolves it: a latch between the server's handlers and the test. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * An app whose `/held/:name` answers only once the test opens that name's latch; it tells when each started.
 * `GET /seen/:name` answers at once, and `POST /read-later/:name` reads its body once the latch opens.
 * `POST /upload/:name` answers 415 to a body that is not JSON, and otherwise reads the body (unless
 * `?read=no`) and answers 200 with the name, as JSON or (`?answer=bytes`) as bytes; it keeps Node's
 * response of each name.
 */
function heldApp() {
  const held = new Map<string, ReturnType<typeof latch>>();
  const started = new Set<string>();
  const responses = new Map<string, ServerResponse>();
  const gate = (name: string) => {
    let entry = held.get(name);
    if (!entry) held.set(name, (entry = latch()));
    return entry;
  };
  const app = new Hono<{ Bindings: HttpBindings }>()
    .get('/now', (c) => c.json({ ok: true }))
    .get('/held/:name', async (c) => {
      const name = c.req.param('name');
      started.add(name);
      await gate(name).promise;
      return c.json({ name });
    })
    .get('/seen/:name', (c) => {
      started.add(c.req.param('name'));
      return c.json({ name: c.req.param('name') });
    })
    .post('/read-later/:name', async (c) => {
      const name = c.req.param('name');
      started.add(name);
      await gate(name).promise;
      return c.json({ name, bytes: (await readBodyAtMost(c, 1024 * 1024)).byteLength });
    })
    .post('/upload/:name', async (c) => {
      const name = c.req.param('name');
      responses.set(name, c.env.outgoing);
      if (c.req.header('content-type') !== 'application/json') return c.json({ error: 'not JSON' }, 415);
      if (c.req.query('read') !== 'no') await readBodyAtMost(c, 1024);
      return c.req.query('answer') === 'bytes' ? c.body(new TextEncoder().encode(name), 200, { 'Content-Type': 'application/octet-stream' }) : c.json({ name });
    });
  return { app, release: (name: string) => gate(name).open(), started, responses };
}

/** A raw `POST` of `{}` with `type`, and `Expect: 100-continue` when `expectContinue`. */
function rawPost(path: string, type: string, expectContinue = false): string {
  return [`POST ${path} HTTP/1.1`, 'Host: x', `Content-Type: ${type}`, ...(expectContinue ? ['Expect: 100-continue'] : []), 'Content-Length: 2', '', '{}'].join('\r\n');
}

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly body: string;
}

/** A raw keep-alive connection: every complete answer it received, and whether the server ended it. */
async function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  let text = '';
  let ended = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('end', () => (ended = true));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  const answers = (): Answer[] => {
    const parsed: Answer[] = [];
    let rest = text;
    for (;;) {
      const head = rest.indexOf('\r\n\r\n');
      if (head === -1) return parsed;
      const lines = rest.slice(0, head).split('\r\n');
      const header = (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
      const length = Number(header('content-length') ?? 0);
      if (rest.length < head + 4 + length) return parsed;
      parsed.push({ status: Number(lines[0]?.split(' ')[1]), connection: header('connection'), body: rest.slice(head + 4, head + 4 + length) });
      rest = rest.slice(head + 4 + length);
    }
  };
  return {
    socket,
    answers,
    ended: () => ended,
    send: (...paths: string[]) => socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join('')),
  };
}

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A stop closes idle connections at once (production gives them a second to deliver a last request).
const serve = async (app: FetchApp, fastPath = true) => (server = await serveNode(app, { host: '127.0.0.1', port: 0, fastPath, lastRequestsMs: 0 }));

describe('serveNode: the drain before a stop', () => {
  it('answers a kept-alive connection with Connection: close once draining, then ends it', async () => {
    const { url } = await serve(heldApp().app);
    const client = await rawConnection(url);
    client.send('/now');
    await vi.waitFor(() => expect(client.answers()).toHaveLength(1));
    expect(client.answers()[0]?.connection).toBe('keep-alive');

    server?.drain();
    client.send('/now');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    expect(client.answers().map(({ status, connection }) => ({ status, connection }))).toEqual([
      { status: 200, connection: 'keep-alive' },
      { status: 200, connection: 'close' },
    ]);
  });

  it('still accepts new connections while draining, and answers each once with Connection: close', async () => {
    const { url } = await serve(heldApp().app);
    server?.drain();
    const client = await rawConnection(url);
    client.send('/now');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    expect(client.answers()).toEqual([{ status: 200, connection: 'close', body: '{"ok":true}' }]);
  });

  it('closes a connection after the answer that was in flight when the drain began', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    client.send('/held/a');
    await vi.waitFor(() => expect(held.started.has('a')).toBe(true));
    server?.drain();
    held.release('a');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    expect(client.answers()).toEqual([{ status: 200, connection: 'close', body: '{"name":"a"}' }]);
  });

  it('answers every pipelined request already running, closing after the last one', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    client.send('/held/first', '/held/second');
    await vi.waitFor(() => expect(held.started).toEqual(new Set(['first', 'second'])));
    server?.drain();
    held.release('second');
    held.release('first');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    expect(client.answers()).toEqual([
      { status: 200, connection: 'keep-alive', body: '{"name":"first"}' },
      { status: 200, connection: 'close', body: '{"name":"second"}' },
    ]);
  });

  it('answers every pipelined request already parsed, those waiting for their turn included, closing after the last one', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    const names = ['slow', 'a', 'b', 'c', 'd', 'e', 'f'];
    client.send('/held/slow', ...names.slice(1).map((name) => `/seen/${name}`));
    await vi.waitFor(() => expect(held.started.size).toBe(UNTAKEN_ANSWERS_MAX));
    server?.drain();
    held.release('slow');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    const answers = client.answers();
    expect(answers.map(({ body }) => body)).toEqual(names.map((name) => `{"name":"${name}"}`));
    expect(answers.map(({ connection }) => connection)).toEqual([...Array<string>(names.length - 1).fill('keep-alive'), 'close']);
  });

  it('on close, stops accepting connections and lets the request in flight finish', async () => {
    const held = heldApp();
    const { url, port } = await serve(held.app);
    const client = await rawConnection(url);
    client.send('/held/slow');
    await vi.waitFor(() => expect(held.started.has('slow')).toBe(true));
    const closed = server?.close();
    // What was already on its way is accepted first (the event loop's next poll or two): then
    // connections are refused.
    const late: Socket[] = [];
    await vi.waitFor(
      async () => {
        const attempt = await new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          late.push(socket);
          socket.once('connect', () => resolve('accepted'));
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        });
        expect(attempt).toBe('ECONNREFUSED');
      },
      { timeout: 1000, interval: 10 },
    );
    for (const socket of late) socket.destroy();
    held.release('slow');
    await closed;
    expect(client.answers()).toEqual([{ status: 200, connection: 'close', body: '{"name":"slow"}' }]);
  });
});

describe.each([
  { path: 'on', fastPath: true },
  { path: 'off', fastPath: false },
])('serveNode, fast path $path: pipelined requests that expect 100-continue', ({ fastPath }) => {
  const keptAlive = (status: number, body: string) => ({ status, connection: 'keep-alive', body });
  const interim = { status: 100, connection: undefined, body: '' };

  it('answers three POSTs in one packet in order: a 415, one that expects 100-continue, a plain one', async () => {
    const { url } = await serve(heldApp().app, fastPath);
    const client = await rawConnection(url);
    client.socket.write(rawPost('/upload/a', 'text/plain') + rawPost('/upload/b', 'application/json', true) + rawPost('/upload/c', 'application/json'));
    await vi.waitFor(() => expect(client.answers()).toHaveLength(4));
    expect(client.answers()).toEqual([keptAlive(415, '{"error":"not JSON"}'), interim, keptAlive(200, '{"name":"b"}'), keptAlive(200, '{"name":"c"}')]);
    expect(client.ended()).toBe(false);
  });

  it.each([
    { answer: 'json', read: 'yes', body: '{"name":"second"}' },
    { answer: 'json', read: 'no', body: '{"name":"second"}' },
    { answer: 'bytes', read: 'yes', body: 'second' },
    { answer: 'bytes', read: 'no', body: 'second' },
  ])(
    'sends the 100 Continue before the answer ($answer, body read: $read) written while an earlier answer holds the connection, and answers what follows',
    async ({ answer, read, body }) => {
      const held = heldApp();
      const { url } = await serve(held.app, fastPath);
      const client = await rawConnection(url);
      const query = `?answer=${answer}&read=${read}`;
      client.socket.write(`GET /held/first HTTP/1.1\r\nHost: x\r\n\r\n${rawPost(`/upload/second${query}`, 'application/json', true)}${rawPost(`/upload/third${query}`, 'application/json')}`);
      // The second answer is written in full while the first still holds the connection.
      await vi.waitFor(() => expect(held.responses.get('second')?.writableEnded).toBe(true));
      held.release('first');
      await vi.waitFor(() => expect(client.answers()).toHaveLength(4));
      expect(client.answers()).toEqual([keptAlive(200, '{"name":"first"}'), interim, keptAlive(200, body), keptAlive(200, body.replace('second', 'third'))]);
    },
  );
});

describe('serveNode: a connection holds what its client has not let it pass on', () => {
  it('stops reading a connection while an answer waits behind an earlier one, and reads on once it is written', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    client.send('/held/slow', '/seen/answered');
    await vi.waitFor(() => expect(held.started).toEqual(new Set(['slow', 'answered'])));
    // Sent after the answer waits: the server does not read it.
    client.send('/seen/later');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.started.has('later')).toBe(false);
    held.release('slow');
    await vi.waitFor(() => expect(client.answers()).toHaveLength(3));
    expect(client.answers().map(({ body }) => body)).toEqual(['{"name":"slow"}', '{"name":"answered"}', '{"name":"later"}']);
  });

  it('stops reading a connection holding more than 64 KiB of bodies their requests have not taken, and reads on once taken', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    const body = 'x'.repeat(100 * 1024);
    client.socket.write(`POST /read-later/big HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await vi.waitFor(() => expect(held.started.has('big')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.send('/seen/later');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.started.has('later')).toBe(false);
    held.release('big');
    await vi.waitFor(() => expect(client.answers()).toHaveLength(2));
    expect(client.answers().map(({ body: text }) => text)).toEqual([`{"name":"big","bytes":${body.length}}`, '{"name":"later"}']);
  });

  it(`runs at most ${UNTAKEN_ANSWERS_MAX} pipelined requests whose answers are not taken; the rest run, in order, as answers go out`, async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const client = await rawConnection(url);
    const names = ['slow', 'a', 'b', 'c', 'd', 'e', 'f'];
    client.send('/held/slow', ...names.slice(1).map((name) => `/seen/${name}`));
    await vi.waitFor(() => expect(held.started).toEqual(new Set(names.slice(0, UNTAKEN_ANSWERS_MAX))));
    // Parsed, and waiting: a few turns of the event loop run none of them.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(held.started.size).toBe(UNTAKEN_ANSWERS_MAX);
    held.release('slow');
    await vi.waitFor(() => expect(client.answers()).toHaveLength(names.length));
    expect(client.answers().map(({ body }) => body)).toEqual(names.map((name) => `{"name":"${name}"}`));
  });

  it('resets a connection whose client takes none of its answers for the request timeout', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const app = new Hono().get('/big', (c) => c.text(big));
    const served = await serveNode(app, { host: '127.0.0.1', port: 0, lastRequestsMs: 0, timeouts: { headersMs: 500, requestMs: 500, checkIntervalMs: 100 } });
    const socket = connect(served.port, '127.0.0.1');
    try {
      const closed = new Promise<string>((resolve) => {
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        socket.once('close', () => resolve('close'));
      });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.pause();
      // 16 MiB of answers, more than the kernel's buffers take from a client that reads nothing.
      socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(16));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      socket.resume();
      socket.on('data', () => undefined);
      // Reset (Node 24 and later tell the client ECONNRESET; 22 may only say it closed).
      expect(['ECONNRESET', 'close']).toContain(await closed);
    } finally {
      socket.destroy();
      await served.close();
    }
  });
});

describe('serveNode: a timeout answered in order', () => {
  it('answers 408 for headers that never end only after the answer of the request before them, then closes', async () => {
    const held = heldApp();
    server = await serveNode(held.app, { host: '127.0.0.1', port: 0, lastRequestsMs: 0, timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 } });
    const client = await rawConnection(server.url);
    client.socket.write('GET /held/slow HTTP/1.1\r\nHost: x\r\n\r\nGET /seen/never HTTP/1.1\r\nHost: x\r\n');
    await vi.waitFor(() => expect(held.started.has('slow')).toBe(true));
    // Well past the header timeout: the 408 waits for the answer before it.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(client.answers()).toEqual([]);
    held.release('slow');
    await vi.waitFor(() => expect(client.ended()).toBe(true), { timeout: 5_000 });
    expect(client.answers().map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: '{"name":"slow"}' },
      { status: 408, body: '{"error":"Request timeout"}' },
    ]);
  });
});

describe('serveNode: CONNECT', () => {
  it('answers 405 after the answers of the requests before it, and outlives a client gone meanwhile', async () => {
    const held = heldApp();
    const { url } = await serve(held.app);
    const connect = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n';
    const client = await rawConnection(url);
    client.socket.write(`GET /held/first HTTP/1.1\r\nHost: x\r\n\r\n${connect}`);
    await vi.waitFor(() => expect(held.started.has('first')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.answers()).toEqual([]);
    held.release('first');
    await vi.waitFor(() => expect(client.ended()).toBe(true));
    expect(client.answers().map(({ status }) => status)).toEqual([200, 405]);

    // The client goes before the answers ahead of the 405 are out: the server writes nothing to it, and serves on.
    const gone = await rawConnection(url);
    gone.socket.write(`GET /held/second HTTP/1.1\r\nHost: x\r\n\r\n${connect}`);
    await vi.waitFor(() => expect(held.started.has('second')).toBe(true));
    gone.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.release('second');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await rawConnection(url);
    after.send('/seen/after');
    await vi.waitFor(() => expect(after.answers()).toHaveLength(1));
  });
});

// Early answers on one server process of its own (the memory store), and the lingering close's
// bounds on a server in this process. The same cases on a WEB_CONCURRENCY=2 server on MongoDB:
// early-answers.integration.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawConnection, sleep, type RawConnection } from '../support/raw-http.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import { memoryStore } from '@inkwell/app';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { describeEarlyAnswers } from './early-answers.suite.js';

describeEarlyAnswers({
  label: 'one server process',
  start: (env) => startInkwell({ in: 'child', store: 'memory', env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...env } }),
});

/** The request line and headers of a chunked POST, and one 64 KiB chunk frame. */
const chunkedHead = (path: string, contentType = 'application/json') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`;
const chunk = Buffer.alloc(64 * 1024, 0x20);
const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);

describe('the lingering close and its bounds', () => {
  const BOUNDS = { maxMs: 1_500, idleMs: 400 };
  let t: InProcessServer;
  beforeAll(async () => {
    t = await startInkwell({ in: 'process', store: memoryStore(), linger: BOUNDS });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Opens a chunked POST /posts whose body passes 1 MiB, and returns once the 413 arrived; the client may go on sending. */
  const answered413 = async () => {
    const conn = await rawConnection(t.port, { halfOpen: true });
    conn.write(chunkedHead('/posts'));
    for (let i = 0; i < 17; i++) conn.write(frame);
    const raw = await conn.response(5_000);
    expect([raw.status, raw.headers.connection]).toEqual([413, 'close']);
    return { conn, answeredAt: performance.now(), written: conn.written() };
  };

  it('cuts a client that never stops sending at the time bound', async () => {
    const { conn, answeredAt } = await answered413();
    let closedAt: number | undefined;
    void conn.gone.then((at) => (closedAt = at));
    // A trickle that never pauses for the idle bound: only the time bound can end it.
    while (closedAt === undefined && performance.now() - answeredAt < 5_000 && !conn.socket.destroyed) {
      conn.write(Buffer.from('1\r\n \r\n'));
      await sleep(20);
    }
    // The socket can be destroyed a tick before its 'close' event says when.
    closedAt ??= await Promise.race([conn.gone, sleep(1_000).then(() => undefined)]);
    expect(closedAt).toBeDefined();
    expect((closedAt as number) - answeredAt).toBeGreaterThan(BOUNDS.maxMs - 100);
    expect((closedAt as number) - answeredAt).toBeLessThan(BOUNDS.maxMs + 1_000);
  });

  it('cuts a client that goes quiet without finishing once it has sent nothing for the idle bound', async () => {
    // The cut shows only to a client that sends again: its bytes meet a closed socket, which
    // answers with a reset, and the write after that fails (a client that has read the server's
    // FIN reads no more, so only a write finds the reset). Silent for half the idle bound, the
    // connection is still there.
    const resetAfterQuiet = async (quietMs: number) => {
      const { conn } = await answered413();
      await sleep(quietMs);
      conn.write('1\r\n \r\n');
      await sleep(50);
      conn.write('1\r\n \r\n');
      const reset = await Promise.race([conn.gone.then(() => true), sleep(300).then(() => false)]);
      conn.socket.destroy();
      return reset;
    };
    expect({
      afterHalfTheIdleBound: await resetAfterQuiet(BOUNDS.idleMs / 2),
      afterTheIdleBound: await resetAfterQuiet(BOUNDS.idleMs + 300),
    }).toEqual({ afterHalfTheIdleBound: false, afterTheIdleBound: true });
  });

  it("ends a lingering request at the server's request timeout too, counted from the request's start", async () => {
    // Node's request timeout still runs for a request whose body has not ended, whatever the answer.
    const timeouts = { headersMs: 300, requestMs: 800, checkIntervalMs: 50 };
    const short = await startInkwell({ in: 'process', store: memoryStore(), timeouts, linger: { maxMs: 5_000, idleMs: 2_000 } });
    try {
      const conn = await rawConnection(short.port, { halfOpen: true });
      const startedAt = performance.now();
      conn.write(chunkedHead('/posts'));
      for (let i = 0; i < 17; i++) conn.write(frame);
      expect((await conn.response(5_000)).status).toBe(413);
      let goneAt: number | undefined;
      void conn.gone.then((at) => (goneAt = at));
      while (goneAt === undefined && performance.now() - startedAt < 4_000) {
        conn.write('1\r\n \r\n');
        await sleep(20);
      }
      goneAt ??= await Promise.race([conn.gone, sleep(1_000).then(() => undefined)]);
      expect(goneAt).toBeDefined();
      expect((goneAt as number) - startedAt).toBeGreaterThan(timeouts.requestMs - 100);
      expect((goneAt as number) - startedAt).toBeLessThan(timeouts.requestMs + 1_000);
    } finally {
      await short.close();
    }
  });

  it('closes at once when the client ends its side', async () => {
    const { conn } = await answered413();
    const endedAt = performance.now();
    conn.socket.end();
    const goneAt = await Promise.race([conn.gone, sleep(BOUNDS.maxMs * 2).then(() => Number.POSITIVE_INFINITY)]);
    expect(goneAt - endedAt).toBeLessThan(BOUNDS.maxMs / 2);
  });

  it('runs nothing the client sends after the answer: the rest of the body and a request after it are dropped unparsed', async () => {
    const { conn } = await answered413();
    const seen = conn.received().length;
    const post = JSON.stringify({ title: 'after the 413', body: 'b', authorId: 'a', published: true });
    conn.write(`0\r\n\r\nPOST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${post.length}\r\n\r\n${post}`);
    // Garbage a parser would refuse (and answer 400): nothing parses it, so nothing answers it.
    conn.write('NOT HTTP AT ALL\r\n\r\n');
    // The connection ends at the idle bound, with nothing more written to it.
    await Promise.race([conn.gone, sleep(BOUNDS.maxMs * 2)]);
    expect(conn.received().slice(seen)).toBe('');
    const listed = (await (await fetch(`${t.url}/posts`)).json()) as { posts: { title: string }[] };
    expect(listed.posts.map((post) => post.title)).not.toContain('after the 413');
  });

  it('keeps the connection alive when the body was read to its end, whatever the answer', async () => {
    const conn = await rawConnection(t.port);
    const body = JSON.stringify({ title: '', body: 'b', authorId: 'a' });
    const request = `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    conn.write(request);
    const first = await conn.response();
    expect([first.status, first.headers.connection]).toEqual([400, 'keep-alive']);
    const seen = conn.received().length;
    conn.write('GET /posts HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(200);
    expect(conn.received().slice(seen)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(conn.socket.destroyed).toBe(false);
    conn.socket.destroy();
  });
});

describe('the bounds on connections (CONNECTIONS_MAX, LINGERING_CONNECTIONS_MAX; connections.test.ts has the rest)', () => {
  let t: InProcessServer;
  beforeAll(async () => {
    t = await startInkwell({
      in: 'process',
      store: memoryStore(),
      env: { CONNECTIONS_MAX: '4', LINGERING_CONNECTIONS_MAX: '2' },
      linger: { maxMs: 10_000, idleMs: 10_000 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Answers a GET on `conn`, which must still be served. */
  const served = async (conn: RawConnection) => {
    const seen = conn.received().length;
    conn.write('GET /posts HTTP/1.1\r\nHost: x\r\n\r\n');
    while (conn.received().length === seen && !conn.socket.destroyed) await sleep(10);
    return conn.received().slice(seen, seen + 15);
  };

  it('serves a connection past the limit, closing the one idle longest to make room, and serves the others as before', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => rawConnection(t.port)));
    for (const conn of held) expect(await served(conn)).toBe('HTTP/1.1 200 OK');
    const extra = await rawConnection(t.port);
    expect(await served(extra)).toBe('HTTP/1.1 200 OK');
    const [idlest, ...others] = held as [RawConnection, ...RawConnection[]];
    await Promise.race([idlest.closed, sleep(2_000)]);
    expect(idlest.socket.destroyed || idlest.socket.readableEnded).toBe(true);
    for (const conn of others) expect(await served(conn)).toBe('HTTP/1.1 200 OK');
    for (const conn of [...held, extra]) conn.socket.destroy();
  });

  it('closes the connection that has lingered longest when one more begins to linger', async () => {
    const lingering: RawConnection[] = [];
    for (let i = 0; i < 3; i++) {
      const conn = await rawConnection(t.port, { halfOpen: true });
      conn.write(chunkedHead('/posts'));
      for (let j = 0; j < 17; j++) conn.write(frame);
      expect((await conn.response(5_000)).status).toBe(413);
      lingering.push(conn);
    }
    // The first is cut (a write to it meets a reset); the two others still take what is sent.
    const [first, ...others] = lingering as [RawConnection, ...RawConnection[]];
    const cutWithin = async (conn: RawConnection, ms: number) => {
      const until = performance.now() + ms;
      while (!conn.socket.destroyed && performance.now() < until) {
        conn.write('1\r\n \r\n');
        await sleep(50);
      }
      return conn.socket.destroyed;
    };
    expect(await cutWithin(first, 5_000)).toBe(true);
    expect(await Promise.all(others.map((conn) => cutWithin(conn, 300)))).toEqual([false, false]);
    for (const conn of lingering) conn.socket.destroy();
  });
});

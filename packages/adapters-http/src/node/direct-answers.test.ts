import { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOINED_BODY_MAX } from './direct-answers.js';
import { serveNode, type NodeServer } from './serve-node.js';

/** A body one code unit longer than the longest written joined to its head, with 2-, 3- and 4-byte characters. */
const LONG_BODY = `${'é✓'.repeat(JOINED_BODY_MAX / 2 - 1)}🙂`.padEnd(JOINED_BODY_MAX + 1, '.');
/** A body exactly as long as the longest written joined to its head. */
const LIMIT_BODY = 'é'.repeat(JOINED_BODY_MAX);

/** A chunk as a socket was handed it to write. */
interface Written {
  readonly chunk: unknown;
  readonly encoding: string;
}

/** Records what `socket` is handed to write from now on, in order, on that socket alone. */
function watchWrites(socket: Duplex, written: Written[]): void {
  const write = socket._write.bind(socket);
  socket._write = (chunk: unknown, encoding, callback) => {
    written.push({ chunk, encoding });
    write(chunk, encoding, callback);
  };
  const writev = socket._writev?.bind(socket);
  if (writev === undefined) return;
  socket._writev = (chunks, callback) => {
    written.push(...chunks.map(({ chunk, encoding }) => ({ chunk: chunk as unknown, encoding })));
    writev(chunks, callback);
  };
}

/** What the sockets of `/watched/...` requests were handed to write, by the text the request asked for. */
const writesOf = new Map<string, Written[]>();

/** An app answering in every way the direct writer sees, and one way it leaves to @hono/node-server. */
function app() {
  return new Hono<{ Bindings: HttpBindings }>()
    .use(async (c, next) => {
      c.header('X-Before', 'set before the route');
      await next();
      c.res.headers.set('X-After', 'set after the route');
    })
    .get('/json', (c) => c.json({ text: 'naïve café ✓' }, 201))
    .get('/empty', (c) => c.body(null, 204))
    .get('/text', (c) => c.body('plain words'))
    .get('/bytes', (c) => c.body(new Uint8Array([1, 2, 3, 250]), 200, { 'Content-Type': 'application/octet-stream' }))
    .get('/cookies', (c) => {
      c.header('Set-Cookie', 'a=1', { append: true });
      c.header('Set-Cookie', 'b=2', { append: true });
      c.header('Vary', 'Accept', { append: true });
      c.header('Vary', 'Origin', { append: true });
      return c.text('two cookies');
    })
    .get('/raw', () => new Response('made without c', { status: 202, headers: { 'Content-Type': 'text/x-raw' } }))
    .get('/latin1', (c) => {
      c.header('X-Name', 'José');
      return c.text('naïve ✓');
    })
    .get('/long', (c) => c.text(LONG_BODY))
    .get('/at-limit', (c) => c.text(LIMIT_BODY))
    .get('/long-latin1', (c) => {
      c.header('X-Name', 'José');
      return c.text(LONG_BODY);
    })
    .get('/watched/:which', (c) => {
      const written: Written[] = [];
      writesOf.set(c.req.param('which'), written);
      watchWrites(c.env.outgoing.socket as Duplex, written);
      return c.text(c.req.param('which') === 'long' ? LONG_BODY : 'short words');
    })
    .get('/request-cookies', (c) => {
      c.header('Cookie', 'a=1', { append: true });
      c.header('Cookie', 'b=2', { append: true });
      return c.body(null, 204);
    })
    .get('/stream', (c) => c.body(Readable.toWeb(Readable.from([Buffer.from('streamed '), Buffer.from('body')])) as ReadableStream, 200));
}

interface Answer {
  readonly status: number;
  /** Lower-case names and values, in the order they were written. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** The data of a whole chunked body (RFC 9112 §7.1), without its framing; throws at anything else. */
function dechunked(framed: string): string {
  let data = '';
  for (let rest = framed; ; ) {
    const size = /^([0-9a-f]+)\r\n/i.exec(rest);
    if (!size) throw new Error(`not a chunk: ${JSON.stringify(rest)}`);
    const length = Number.parseInt(size[1] as string, 16);
    const start = size[0].length;
    if (rest.slice(start + length, start + length + 2) !== '\r\n') throw new Error(`a chunk without its CRLF: ${JSON.stringify(rest)}`);
    if (length === 0) {
      if (rest.length !== start + 2) throw new Error(`bytes after the last chunk: ${JSON.stringify(rest)}`);
      return data;
    }
    data += rest.slice(start, start + length);
    rest = rest.slice(start + length + 2);
  }
}

/** One request on a connection of its own, and everything it got back, as bytes. */
function rawBytes(url: string, method: string, path: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
  });
}

/** One request on a connection of its own, and the answer exactly as it came. */
async function exchange(url: string, method: string, path: string): Promise<Answer> {
  const raw = await rawBytes(url, method, path);
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers = lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
  });
  return { status: Number(statusLine?.split(' ')[1]), headers, body: raw.subarray(split + 4) };
}

const header = (answer: Answer, name: string) => answer.headers.filter(([n]) => n === name).map(([, value]) => value);

/** The answer's headers that say something about the answer, sorted (a server's own Date and Connection aside). */
const contentHeaders = (answer: Answer) => answer.headers.filter(([name]) => name !== 'date' && name !== 'connection').map((pair) => pair.join(': ')).sort();

describe('answers written directly to Node', () => {
  let direct: NodeServer;
  let reference: NodeServer;

  beforeAll(async () => {
    direct = await serveNode(app(), { host: '127.0.0.1', port: 0 });
    // The same app off the fast path: every answer written by @hono/node-server, for comparison.
    reference = await serveNode(app(), { host: '127.0.0.1', port: 0, fastPath: false });
  });
  afterAll(async () => {
    await direct.close();
    await reference.close();
  });

  it.each(['/json', '/empty', '/text', '/bytes', '/cookies', '/raw', '/stream', '/latin1', '/request-cookies', '/long', '/at-limit', '/long-latin1'])(
    'GET %s: the same status, headers and body as @hono/node-server writes',
    async (path) => {
      const [mine, theirs] = await Promise.all([exchange(direct.url, 'GET', path), exchange(reference.url, 'GET', path)]);
      expect(mine.status).toBe(theirs.status);
      expect(contentHeaders(mine)).toStrictEqual(contentHeaders(theirs));
      expect(mine.body.toString('latin1')).toBe(theirs.body.toString('latin1'));
    },
  );

  it('writes the headers in the order they were set, with the length of the UTF-8 body', async () => {
    const answer = await exchange(direct.url, 'GET', '/json');
    expect(answer.status).toBe(201);
    expect(answer.headers.map(([name]) => name).slice(0, 4)).toStrictEqual(['x-before', 'content-type', 'x-after', 'content-length']);
    expect(header(answer, 'content-length')).toStrictEqual([String(answer.body.byteLength)]);
    expect(JSON.parse(answer.body.toString('utf8'))).toStrictEqual({ text: 'naïve café ✓' });
  });

  it('gives an answer without a body no length and no content type', async () => {
    const answer = await exchange(direct.url, 'GET', '/empty');
    expect(answer.status).toBe(204);
    expect(header(answer, 'content-length')).toStrictEqual([]);
    expect(header(answer, 'content-type')).toStrictEqual([]);
    expect(answer.body.byteLength).toBe(0);
  });

  it('writes every value of a repeated header, each cookie on a line of its own', async () => {
    const answer = await exchange(direct.url, 'GET', '/cookies');
    expect(header(answer, 'set-cookie')).toStrictEqual(['a=1', 'b=2']);
    expect(header(answer, 'vary').join(', ')).toBe('Accept, Origin');
  });

  it('writes a Latin-1 header value byte for byte as Node does, one byte a character, beside a UTF-8 body', async () => {
    const [mine, theirs] = await Promise.all([rawBytes(direct.url, 'GET', '/latin1'), rawBytes(reference.url, 'GET', '/latin1')]);
    const value = (raw: Buffer) => raw.subarray(raw.indexOf('x-name: ') + 'x-name: '.length, raw.indexOf('\r\n', raw.indexOf('x-name: '))).toString('hex');
    expect({ mine: value(mine), theirs: value(theirs) }).toStrictEqual({ mine: '4a6f73e9', theirs: '4a6f73e9' });
    expect(mine.subarray(mine.indexOf('\r\n\r\n') + 4).toString('utf8')).toBe('naïve ✓');
  });

  it.each(['/long', '/at-limit', '/long-latin1'])('writes %s, a body as long as or past the longest joined to its head, whole in UTF-8, with its length', async (path) => {
    const answer = await exchange(direct.url, 'GET', path);
    const body = path === '/at-limit' ? LIMIT_BODY : LONG_BODY;
    expect(answer.body.toString('utf8')).toBe(body);
    expect(header(answer, 'content-length')).toStrictEqual([String(Buffer.byteLength(body))]);
    expect(header(answer, 'x-name')).toStrictEqual(path === '/long-latin1' ? [Buffer.from('José', 'latin1').toString('latin1')] : []);
  });

  it('writes a short body joined to its head, one string, and a long one apart from it, as it is', async () => {
    const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('latin1'));
    // Some Node lines end a message with an empty write of their own.
    const chunksOf = (which: string) => (writesOf.get(which) ?? []).filter(({ chunk }) => text(chunk) !== '');
    await exchange(direct.url, 'GET', '/watched/short');
    const short = chunksOf('short');
    expect(short).toHaveLength(1);
    expect(text(short[0]?.chunk)).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nshort words$/);

    await exchange(direct.url, 'GET', '/watched/long');
    const long = chunksOf('long');
    expect(long).toHaveLength(2);
    expect(text(long[0]?.chunk)).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\n$/);
    // The body's own string, for the socket to encode: no copy of it joined to the head.
    expect(long[1]).toStrictEqual({ chunk: LONG_BODY, encoding: 'utf-8' });
  });

  it('writes bytes as they are', async () => {
    const answer = await exchange(direct.url, 'GET', '/bytes');
    expect([...answer.body]).toStrictEqual([1, 2, 3, 250]);
    expect(header(answer, 'content-length')).toStrictEqual(['4']);
  });

  it('leaves a streamed body to @hono/node-server, which sends all of it', async () => {
    const answer = await exchange(direct.url, 'GET', '/stream');
    expect(answer.status).toBe(200);
    expect(header(answer, 'transfer-encoding')).toStrictEqual(['chunked']);
    // Where the chunks are cut is Node's choice (Node 26 sends the stream's two reads as one chunk).
    expect(dechunked(answer.body.toString('utf8'))).toBe('streamed body');
    expect(header(answer, 'x-after')).toStrictEqual(['set after the route']);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await exchange(direct.url, 'HEAD', '/json');
    expect(answer.status).toBe(201);
    expect(header(answer, 'content-type')).toStrictEqual(['application/json']);
    expect(answer.body.byteLength).toBe(0);
  });
});

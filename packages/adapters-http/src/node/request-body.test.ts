import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http-errors.js';
import { BodyBuffer } from '../request/body-buffer.js';
import { bodyBytesReceived, continueWhenRead, FREE_CHUNKS, MIN_BYTES_PER_CHUNK, readRequestBody, requestsWithBodyBuffer } from './request-body.js';

describe('BodyBuffer', () => {
  it('keeps a body that comes whole in its first piece as that piece, without a copy, unless the piece shares its memory', () => {
    // Node's parser hands each piece in memory of its own, as this one.
    const own = new Uint8Array(Buffer.from('{"a":1}'));
    const buffer = new BodyBuffer(100);
    expect(buffer.append(own)).toBe(true);
    expect(buffer.bytes().buffer).toBe(own.buffer);
    // A piece cut from a larger allocation (Buffer.from's pool) is copied, or the body would hold all of it.
    const pooled = Buffer.from('{"a":1}');
    const copied = new BodyBuffer(100);
    copied.append(pooled);
    expect(copied.bytes().buffer).not.toBe(pooled.buffer);
    expect(Buffer.from(copied.bytes()).toString()).toBe('{"a":1}');
  });

  it('copies pieces into one buffer that grows by doubling, never past its capacity', () => {
    const buffer = new BodyBuffer(10_000);
    const capacities: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      expect(buffer.append(new Uint8Array([0x61 + (i % 26)]))).toBe(true);
      const { byteLength } = buffer.bytes().buffer;
      if (capacities.at(-1) !== byteLength) capacities.push(byteLength);
    }
    expect(capacities).toEqual([1, 4096, 8192, 10_000]);
    expect(Buffer.from(buffer.bytes()).toString('latin1')).toBe(Array.from({ length: 10_000 }, (_, i) => String.fromCharCode(0x61 + (i % 26))).join(''));
  });

  it('refuses a piece that would pass its capacity, and keeps what it had', () => {
    const buffer = new BodyBuffer(5);
    expect(buffer.append(Buffer.from('abc'))).toBe(true);
    expect(buffer.append(Buffer.from('def'))).toBe(false);
    expect(Buffer.from(buffer.bytes()).toString()).toBe('abc');
  });
});

describe('requests whose body is kept in one buffer', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  /** A server of `requestsWithBodyBuffer(limit)` that runs `handle`, and a raw exchange with it: what came back once it closed. */
  async function exchange(limit: number, handle: (request: IncomingMessage, response: ServerResponse) => void, ...writes: (string | Buffer)[]): Promise<string> {
    server = createServer({ IncomingMessage: requestsWithBodyBuffer(limit) }, handle);
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      continueWhenRead(request, response);
      handle(request, response);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('connect', resolve));
    for (const data of writes) socket.write(data);
    await new Promise((resolve) => socket.once('close', resolve));
    return text;
  }

  /** Answers with the body read at most `maxBytes`, or the error's message. */
  const echo = (maxBytes: number) => (request: IncomingMessage, response: ServerResponse) => {
    readRequestBody(request, maxBytes)?.then(
      (body) => response.end(`read ${body.byteLength}: ${Buffer.from(body).toString('latin1').slice(0, 20)}`),
      (error: Error) => response.end(`refused: ${error instanceof HttpError ? error.failure : error.message}`),
    );
  };
  const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);
  const chunked = (body: string) => `${[...body].map((character) => `1\r\n${character}\r\n`).join('')}0\r\n\r\n`;

  it('reads a body sent in one-byte chunks into one buffer, up to FREE_CHUNKS of them', async () => {
    const body = 'x'.repeat(FREE_CHUNKS);
    const text = await exchange(10_000, echo(10_000), `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(body)}`);
    expect(bodyOf(text)).toContain(`read ${FREE_CHUNKS}: ${'x'.repeat(20)}`);
  });

  it('refuses a chunked body in more chunks than its size needs: more than FREE_CHUNKS and one for every MIN_BYTES_PER_CHUNK bytes', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunks = (count: number, size: number) => `${`${size.toString(16)}\r\n${'c'.repeat(size)}\r\n`.repeat(count)}0\r\n\r\n`;
    // Twice the free chunks, each of one byte.
    expect(bodyOf(await exchange(100_000, echo(100_000), head + chunks(2 * FREE_CHUNKS, 1)))).toContain('refused: BodyTooLarge');
    // Chunks of MIN_BYTES_PER_CHUNK bytes, however many (some cut across reads); of half that, past twice FREE_CHUNKS.
    const many = FREE_CHUNKS * 4;
    expect(bodyOf(await exchange(100_000, echo(100_000), head + chunks(many, MIN_BYTES_PER_CHUNK)))).toContain(`read ${many * MIN_BYTES_PER_CHUNK}: `);
    expect(bodyOf(await exchange(100_000, echo(100_000), head + chunks(2 * FREE_CHUNKS, MIN_BYTES_PER_CHUNK / 2)))).toContain(`read ${FREE_CHUNKS * MIN_BYTES_PER_CHUNK}: `);
    expect(bodyOf(await exchange(100_000, echo(100_000), head + chunks(2 * FREE_CHUNKS + 1, MIN_BYTES_PER_CHUNK / 2)))).toContain('refused: BodyTooLarge');
    // A body framed by its length is not counted in pieces: its pieces are the TCP reads.
    const framed = await exchange(100_000, echo(100_000), 'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 3000\r\n\r\n', ...Array.from({ length: 3000 }, () => 'l'));
    expect(bodyOf(framed)).toContain('read 3000: ');
  });

  it('hands the body over once: the request keeps nothing of it, and a second read is refused', async () => {
    const seen: string[] = [];
    const text = await exchange(
      10_000,
      (request, response) => {
        const first = readRequestBody(request, 100);
        void first?.then(async (body) => {
          seen.push(`read ${body.byteLength}`, `kept ${bodyBytesReceived(request)}`);
          await readRequestBody(request, 100)?.catch((error: Error) => seen.push(error.message));
          response.end('done');
        });
      },
      'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello',
    );
    expect({ answer: bodyOf(text), seen }).toEqual({ answer: 'done', seen: ['read 5', 'kept 0', 'request body read twice'] });
  });

  it('refuses a body over the limit as soon as it passes it, by its Content-Length before any byte', async () => {
    const streamed = await exchange(100, echo(100), `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked('y'.repeat(101))}`);
    expect(bodyOf(streamed)).toContain('refused: BodyTooLarge');
    const declared = await exchange(100, echo(100), 'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 101\r\n\r\n');
    expect(bodyOf(declared)).toContain('refused: BodyTooLarge');
    // The reader's own limit, when lower than the server's.
    const lower = await exchange(100, echo(10), 'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 11\r\n\r\n01234567890');
    expect(bodyOf(lower)).toContain('refused: BodyTooLarge');
  });

  it("hands the whole body, in one piece, to whoever reads the request's stream instead", async () => {
    const pieces: number[] = [];
    const text = await exchange(
      10_000,
      (request, response) => request.on('data', (piece: Buffer) => pieces.push(piece.byteLength)).on('end', () => response.end('done')),
      `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunked('z'.repeat(300))}`,
    );
    expect({ answer: bodyOf(text), pieces }).toEqual({ answer: 'done', pieces: [300] });
  });

  it('sends 100 Continue when the body is read, and not for a body refused by its length', async () => {
    const head = (length: number) => `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;
    server = undefined;
    const refused = await exchange(100, echo(100), head(101));
    expect(refused).not.toContain('100 Continue');
    expect(bodyOf(refused)).toContain('refused: BodyTooLarge');
  });
});

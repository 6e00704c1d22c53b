// What a client that takes its answers slowly, or not at all, leaves held in the server, as
// docs/security.md bounds it ("Memory, per connection": at most 4 answers not taken, none more begun
// once they hold 64 KiB; "Answers not taken": a connection is reset only when its client takes no
// byte of its answers for the request timeout), with string bodies past JOINED_BODY_MAX, which
// direct-answers.ts writes apart from their head, and beside a Latin-1 header value.
import { Hono } from 'hono';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { UNTAKEN_ANSWER_BYTES } from './backpressure.js';
import { serveNode } from './serve-node.js';
import { closedAfterEach, LONG_ANSWER, readSlowly } from '../test-support/slow-client.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A Latin-1 header value past ASCII: the direct writer then writes the body apart from the head. */
const LATIN1_VALUE = 'José ÿ©';

/** The bytes after an answer's head. */
const bodyBytes = (raw: Buffer) => raw.subarray(raw.indexOf('\r\n\r\n') + 4);

describe('answers a client does not take, counted as docs/security.md bounds them', () => {
  /** 64 KiB less a byte of UTF-8 either way: ASCII, or 3-byte characters (a third as many code units). */
  const ASCII = 'x'.repeat(UNTAKEN_ANSWER_BYTES - 1);
  const WIDE = '✓'.repeat((UNTAKEN_ANSWER_BYTES - 1) / 3);
  const opened = closedAfterEach();

  /** How many of `count` pipelined GETs of `path` ran while their client read nothing, once no more do. */
  async function ranUnread(path: string, count: number): Promise<number> {
    let ran = 0;
    const counting = new Hono().get('/ascii', (c) => (ran++, c.text(ASCII))).get('/wide-latin1', (c) => {
      ran++;
      c.header('X-Name', LATIN1_VALUE);
      return c.text(WIDE);
    });
    const server = (opened.server = await serveNode(counting, { host: '127.0.0.1', port: 0 }));
    const socket = connect(server.port, '127.0.0.1');
    opened.sockets.push(socket);
    socket.on('error', () => undefined);
    socket.pause();
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count));
    let last = -1;
    while (ran !== last) {
      last = ran;
      await sleep(1_000);
    }
    socket.destroy();
    await server.close();
    opened.server = undefined;
    return ran;
  }

  // A plain string body is counted by Node in UTF-16 code units, not bytes: 64 KiB of 3-byte
  // characters let two or three answers more begin (docs/security.md, "Memory, per connection").
  it('GET /wide-latin1 (64 KiB of 3-byte characters beside a Latin-1 header value, written as bytes): no more answers begin, unread, than for 64 KiB of ASCII', { timeout: 30_000 }, async () => {
    // Each answer holds 64 KiB itself: once the kernel's buffers are full, one answer is left
    // not taken, and no other begins beside it, whatever characters its bytes spell.
    const ascii = await ranUnread('/ascii', 400);
    const wide = await ranUnread('/wide-latin1', 400);
    console.info(`[untaken answers] /wide-latin1: ${wide} ran, ASCII ${ascii}`);
    expect(wide - ascii).toBeLessThanOrEqual(1);
  });
});

describe('a long answer to a client that reads it steadily but slowly', () => {
  const opened = closedAfterEach();

  it('a client taking an 8 MiB answer steadily, for longer than the request timeout, is not reset: it gets all of it', { timeout: 30_000 }, async () => {
    const server = (opened.server = await serveNode(
      new Hono().get('/long', (c) => c.text(LONG_ANSWER)),
      { host: '127.0.0.1', port: 0, timeouts: { headersMs: 1_000, requestMs: 1_500, checkIntervalMs: 100 } },
    ));
    const socket = connect(server.port, '127.0.0.1');
    opened.sockets.push(socket);
    socket.write('GET /long HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // About 2.5 MB a second: 8 MiB take some 4 s, the request timeout being 1.5 s; bytes move all along.
    const { received, error } = await readSlowly(socket, 64 * 1024, 25);
    console.info(`[slow reader] got ${received.length} bytes, ${error ?? "no error"}`);
    expect(error).toBeUndefined();
    expect(bodyBytes(received).equals(Buffer.from(LONG_ANSWER, 'utf8'))).toBe(true);
  });

});

// Node's own rejections (the parser's and the server's timeouts) and the requests
// @hono/node-server cannot translate, over raw sockets: each answers the API's JSON error shape
// and closes the connection. None of them reaches a store, so the memory store stands for both.
import { JSON_API_CONTENT_SECURITY_POLICY } from '@inkwell/adapters-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, openStore } from '@inkwell/app';
import { parseRawResponse, rawConnection, sleep, type RawResponse } from '../support/raw-http.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';

const TIMEOUTS = { headersMs: 1_000, requestMs: 2_000, keepAliveMs: 3_000, checkIntervalMs: 100 };

function expectJsonRejection(raw: RawResponse, status: number, error: string): void {
  expect({ status: raw.status, body: JSON.parse(raw.body) as unknown }).toStrictEqual({ status, body: { error } });
  expect(raw.headers['content-type']).toBe('application/json');
  expect(raw.headers['x-content-type-options']).toBe('nosniff');
  expect(raw.headers['content-security-policy']).toBe(JSON_API_CONTENT_SECURITY_POLICY);
}

describe('Node rejections over raw sockets', () => {
  let t: InProcessServer;
  beforeAll(async () => {
    t = await startInkwell({ in: 'process', store: await openStore(readConfig({ DB_URL: 'memory:' })), timeouts: TIMEOUTS });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends `text`, waits for the answer and for the server to close the connection. */
  const exchange = async (text: string | Buffer) => {
    const conn = await rawConnection(t.port);
    conn.write(text);
    const raw = await conn.response(5_000);
    await Promise.race([conn.closed, sleep(3_000).then(() => Promise.reject(new Error('connection left open')))]);
    conn.socket.destroy();
    return raw;
  };

  it('431 for headers over 16 KiB (a 20 KiB cookie; a 100 KiB Authorization)', async () => {
    expectJsonRejection(await exchange(`GET /posts HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20 * 1024)}\r\n\r\n`), 431, 'Request headers too large');
    expectJsonRejection(
      await exchange(`GET /me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'t'.repeat(100 * 1024)}\r\n\r\n`),
      431,
      'Request headers too large',
    );
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['an unknown HTTP version', 'GET /posts HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a method with invalid characters', 'G@T /posts HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space inside the target', 'GET /po sts HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /posts HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n'],
    ['a non-numeric Content-Length', 'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['two different Content-Lengths', 'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['Content-Length with chunked (smuggling)', 'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a bare LF line ending inside the headers', 'GET /posts HTTP/1.1\nHost: x\r\n\r\n'],
  ])('400 for %s', async (_label, text) => {
    expectJsonRejection(await exchange(text), 400, 'Bad request');
  });

  it('400 for a malformed request after a good one on the same keep-alive connection', async () => {
    const conn = await rawConnection(t.port);
    conn.write('GET /posts HTTP/1.1\r\nHost: x\r\n\r\n');
    const first = await conn.response();
    expect(first.status).toBe(200);
    const afterFirst = conn.received().length;
    conn.write('BROKEN REQUEST\r\n\r\n');
    await conn.closed;
    const second = parseRawResponse(conn.received().slice(afterFirst));
    expect(second).not.toBeNull();
    expectJsonRejection(second as RawResponse, 400, 'Bad request');
  });

  it('400 in JSON for requests the adapter cannot translate (a Host that is no host name)', async () => {
    for (const host of ['exa mple.com', 'a/b', 'x@y']) {
      const conn = await rawConnection(t.port);
      conn.write(`GET /posts HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expectJsonRejection(await conn.response(), 400, 'Bad request');
      conn.socket.destroy();
    }
  });

  it('408 when the headers do not arrive within the header timeout', async () => {
    const started = performance.now();
    const raw = await exchange('GET /posts HTTP/1.1\r\nHost: x\r\n');
    expectJsonRejection(raw, 408, 'Request timeout');
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.headersMs + 5 * TIMEOUTS.checkIntervalMs + 500);
  });

  it('408 when the body does not arrive within the request timeout', async () => {
    const started = performance.now();
    const raw = await exchange('POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":');
    expectJsonRejection(raw, 408, 'Request timeout');
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.requestMs + 5 * TIMEOUTS.checkIntervalMs + 500);
  });

  it('logged none of these as an unexpected error, and keeps serving', async () => {
    await sleep(200);
    expect(t.log.records().filter((record) => Number(record.level) >= 50)).toEqual([]);
    expect((await fetch(`${t.url}/posts`)).status).toBe(200);
  });
});

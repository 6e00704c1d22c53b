import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { expectSameAnswer, expectSameRuling } from './same-work.js';

// Servers that answer every request with fixed bytes, so each test says exactly what differs.
const servers: Server[] = [];

async function answering(raw: string): Promise<string> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.end(raw));
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A raw HTTP/1.1 answer with these header lines and this body. */
function raw(status: string, headers: readonly string[], body: string): string {
  return [`HTTP/1.1 ${status}`, ...headers, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n');
}

const call = { method: 'GET', path: '/posts/x' };
const post = '{"post":{"id":"0123456789abcdef01234567","title":"T","createdAt":1764000000000,"updatedAt":1764000000000}}';
const inkwellAnswer = raw(
  '200 OK',
  [
    'X-Request-Id: 9b1c2f4e-0000-4000-8000-000000000000',
    'Content-Security-Policy: default-src \'none\'; frame-ancestors \'none\'',
    'X-Frame-Options: DENY',
    'Content-Type: application/json',
    'Date: Thu, 26 Nov 2026 10:00:00 GMT',
  ],
  post,
);

describe('expectSameAnswer', () => {
  it("accepts an answer that differs only in what legitimately differs, and resolves with inkwell's size", async () => {
    const inkwell = await answering(inkwellAnswer);
    const other = await answering(
      raw(
        '200 OK',
        [
          // Another order and case, another date and request id, charset on the JSON type, no space in the CSP.
          'date: Fri, 27 Nov 2026 11:11:11 GMT',
          'content-type: application/json; charset=utf-8',
          "content-security-policy: default-src 'none';frame-ancestors 'none'",
          'x-frame-options: DENY',
          'x-request-id: other-id',
        ],
        // Another post id and other timestamps, as a second created post has.
        post.replace('0123456789abcdef01234567', 'fedcba9876543210fedcba98').replaceAll('1764000000000', '1764000000999'),
      ),
    );
    await expect(expectSameAnswer(inkwell, other, 'other', call)).resolves.toBe(Buffer.byteLength(inkwellAnswer));
  });

  it('refuses another status, naming the server and the endpoint', async () => {
    const inkwell = await answering(inkwellAnswer);
    const other = await answering(inkwellAnswer.replace('200 OK', '201 Created'));
    await expect(expectSameAnswer(inkwell, other, 'Other', call)).rejects.toThrow(/GET \/posts\/x: Other does not answer as inkwell does: .*201 Created/);
  });

  it("refuses a header inkwell sends with another value, or one it does not send", async () => {
    const inkwell = await answering(inkwellAnswer);
    const otherValue = await answering(inkwellAnswer.replace('X-Frame-Options: DENY', 'X-Frame-Options: SAMEORIGIN'));
    await expect(expectSameAnswer(inkwell, otherValue, 'other', call)).rejects.toThrow(/SAMEORIGIN/);
    const extra = await answering(inkwellAnswer.replace('X-Frame-Options: DENY', 'X-Frame-Options: DENY\r\nX-Powered-By: Express'));
    await expect(expectSameAnswer(inkwell, extra, 'other', call)).rejects.toThrow(/x-powered-by/);
    const missing = await answering(inkwellAnswer.replace('X-Frame-Options: DENY\r\n', ''));
    await expect(expectSameAnswer(inkwell, missing, 'other', call)).rejects.toThrow(/does not answer as inkwell does/);
  });

  it('refuses another body, down to its bytes', async () => {
    const inkwell = await answering(inkwellAnswer);
    // The same JSON value, another text: a space after a colon (and so another Content-Length).
    const spaced = await answering(raw('200 OK', inkwellAnswer.split('\r\n').slice(1, 6), post.replace('"title":"T"', '"title": "T"')));
    await expect(expectSameAnswer(inkwell, spaced, 'other', call)).rejects.toThrow(/does not answer as inkwell does/);
  });

  it('refuses a charset other than UTF-8', async () => {
    const inkwell = await answering(inkwellAnswer);
    const latin = await answering(inkwellAnswer.replace('Content-Type: application/json', 'Content-Type: application/json; charset=latin1'));
    await expect(expectSameAnswer(inkwell, latin, 'other', call)).rejects.toThrow(/latin1/);
  });
});

describe('expectSameRuling', () => {
  const check = { what: 'page 0', call: { method: 'GET', path: '/posts?page=0' } };
  const refusal = (message: string) => raw('400 Bad Request', ['Content-Type: application/json'], JSON.stringify({ error: 'Validation failed', issues: [{ path: 'page', message }] }));

  it('accepts the same status and issue paths worded another way', async () => {
    const inkwell = await answering(refusal('must be at least 1'));
    const other = await answering(refusal('Number must be greater than or equal to 1'));
    await expect(expectSameRuling(inkwell, other, 'other', check)).resolves.toBeUndefined();
  });

  it('refuses another status or another path', async () => {
    const inkwell = await answering(refusal('must be at least 1'));
    const accepted = await answering(raw('200 OK', ['Content-Type: application/json'], '{"posts":[]}'));
    await expect(expectSameRuling(inkwell, accepted, 'Other', check)).rejects.toThrow(/\(page 0\): Other does not rule as inkwell does/);
    const otherPath = await answering(refusal('x').replace('"path":"page"', '"path":"perPage"'));
    await expect(expectSameRuling(inkwell, otherPath, 'other', check)).rejects.toThrow(/perPage/);
  });
});

// Answers whose string body is written apart from its head (direct-answers.ts, past JOINED_BODY_MAX
// code units or beside a Latin-1 header value), attacked at the socket: the bytes must be those
// @hono/node-server writes (UTF-8 of odd strings at the edges of the limit, Latin-1 values, HEAD),
// pipelined answers must arrive whole and in order (behind a slow one, after a `100 Continue`), and
// an early answer must arrive whole before its connection's lingering close. What such answers
// leave held for a client that does not take them: untaken-answers.test.ts.
import { Hono } from 'hono';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyAtMost } from '../request/request-facts.js';
import { JOINED_BODY_MAX } from './direct-answers.js';
import { serveNode, type NodeServer } from './serve-node.js';
import { closedAfterEach, LONG_ANSWER, readSlowly } from '../test-support/slow-client.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const L = JOINED_BODY_MAX;

/** Bodies at the edges of what is joined to its head, and strings UTF-8 has to mend. */
const EDGES: Record<string, string> = {
  'ascii-at-limit': 'a'.repeat(L),
  'ascii-past-limit': 'a'.repeat(L + 1),
  'emoji-ends-at-limit': `${'a'.repeat(L - 2)}🙂`,
  'emoji-straddles-limit': `${'a'.repeat(L - 1)}🙂`,
  'emoji-past-limit': '🙂'.repeat(L / 2 + 1),
  'high-surrogate-last': `${'b'.repeat(L)}\ud83d`,
  'low-surrogate-first': `\ude42${'b'.repeat(L)}`,
  'surrogates-reversed': `${'c'.repeat(L / 2)}\ude42\ud83d${'c'.repeat(L / 2)}`,
  'lone-at-limit': `${'d'.repeat(L - 1)}\udfff`,
  'lone-past-limit': `${'d'.repeat(L)}\udfff`,
  'three-bytes-past-limit': '✓'.repeat(L + 1),
  'nul-and-controls': `\u0000\r\n\r\nHTTP/1.1 200 OK\r\n${'\u0001'.repeat(L)}`,
  // Past 65 535 code units, the socket measures the UTF-8 it writes instead of reserving 3 bytes a unit.
  huge: `${'é✓🙂\ud800'.repeat(20_000)}end`,
};
const EDGE_NAMES = Object.keys(EDGES);

/** Latin-1 header values past ASCII, as Node writes them (one byte a character). */
const LATIN1_VALUE = 'José ÿ©';

function app() {
  return new Hono()
    .get('/edge/:name', (c) => {
      if (c.req.query('latin1') !== undefined) c.header('X-Name', LATIN1_VALUE);
      c.header('X-Which', c.req.param('name'));
      return c.text(EDGES[c.req.param('name')] ?? 'none');
    })
    .get('/slow/:name', async (c) => {
      await sleep(300);
      c.header('X-Which', `slow-${c.req.param('name')}`);
      return c.text(EDGES[c.req.param('name')] ?? 'none');
    })
    .post('/echo-long', async (c) => {
      const bytes = (await readBodyAtMost(c, 1024 * 1024)).byteLength;
      c.header('X-Which', `echo-${bytes}`);
      return c.text(`${String(bytes).padEnd(L + 10, '✓')}`);
    });
}

/** Everything a connection got until the server closed it, after writing `request`. */
function rawBytes(port: number, request: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.write(request);
  });
}

const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;

/** An answer's status line, then its header lines sorted, its Date's value blanked (the one thing two servers may differ on). */
function headLines(raw: Buffer): string[] {
  const [status, ...lines] = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('latin1').split('\r\n');
  return [status ?? '', ...lines.map((line) => (/^date:/i.test(line) ? 'date: -' : line)).sort()];
}

/** The bytes after an answer's head. */
const bodyBytes = (raw: Buffer) => raw.subarray(raw.indexOf('\r\n\r\n') + 4);

interface Answer {
  readonly head: string;
  readonly headers: Map<string, string>;
  readonly body: Buffer;
}

/** Splits pipelined answers (each with a Content-Length, or none for HEAD / 1xx) in the order they came. */
function split(raw: Buffer, heads: readonly boolean[]): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  let index = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) throw new Error(`a head cut short at byte ${at}: ${JSON.stringify(raw.subarray(at, at + 200).toString('latin1'))}`);
    const head = raw.subarray(at, end).toString('latin1');
    const headers = new Map(
      head
        .split('\r\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const),
    );
    at = end + 4;
    const informational = /^HTTP\/1\.1 1\d\d /.test(head);
    const length = informational || heads[index] === true ? 0 : Number(headers.get('content-length') ?? 0);
    answers.push({ head, headers, body: raw.subarray(at, at + length) });
    at += length;
    if (!informational) index++;
  }
  return answers;
}

describe('long string bodies written apart from their head, at the socket', () => {
  let direct: NodeServer;
  let reference: NodeServer;

  beforeAll(async () => {
    direct = await serveNode(app(), { host: '127.0.0.1', port: 0 });
    reference = await serveNode(app(), { host: '127.0.0.1', port: 0, fastPath: false });
  });
  afterAll(async () => {
    await direct.close();
    await reference.close();
  });

  it.each(EDGE_NAMES.flatMap((name) => [`/edge/${name}`, `/edge/${name}?latin1`]))(
    'GET %s: byte for byte what @hono/node-server writes, the body in UTF-8 with its length',
    async (path) => {
      const [mine, theirs] = await Promise.all([rawBytes(direct.port, get(path)), rawBytes(reference.port, get(path))]);
      // The same status line and headers (the direct writer keeps the order they were set in), the same bytes after them.
      expect(headLines(mine)).toStrictEqual(headLines(theirs));
      expect(bodyBytes(mine).equals(bodyBytes(theirs))).toBe(true);
      const [answer] = split(mine, [false]);
      const body = EDGES[path.split('/')[2]?.split('?')[0] ?? ''] as string;
      expect(answer?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
      expect(answer?.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(mine.length).toBe(mine.indexOf('\r\n\r\n') + 4 + Buffer.byteLength(body));
      if (path.endsWith('?latin1')) expect(answer?.headers.get('x-name')).toBe(Buffer.from(LATIN1_VALUE, 'latin1').toString('latin1'));
    },
  );

  it.each(['/edge/ascii-past-limit', '/edge/huge?latin1', '/edge/high-surrogate-last'])('HEAD %s: the head @hono/node-server writes, and no body', async (path) => {
    const [mine, theirs, got] = await Promise.all([rawBytes(direct.port, get(path, 'HEAD')), rawBytes(reference.port, get(path, 'HEAD')), rawBytes(direct.port, get(path))]);
    expect(headLines(mine)).toStrictEqual(headLines(theirs));
    expect(mine.length).toBe(mine.indexOf('\r\n\r\n') + 4);
    expect(split(got, [false])[0]?.headers.get('content-length')).toMatch(/^\d+$/);
  });

  it('pipelined short, long, Latin-1 and HEAD answers behind a slow long one: every one whole and in order', { timeout: 15_000 }, async () => {
    const sequence: [string, string, boolean][] = [
      ['GET', '/slow/huge', false],
      ['GET', '/edge/ascii-at-limit', false],
      ['GET', '/edge/emoji-straddles-limit?latin1', false],
      ['HEAD', '/edge/huge', true],
      ['GET', '/edge/lone-past-limit', false],
      ['GET', '/slow/three-bytes-past-limit', false],
      ['GET', '/edge/nul-and-controls?latin1', false],
      ['GET', '/edge/huge?latin1', false],
      ['GET', '/edge/ascii-at-limit?latin1', false],
      ['GET', '/edge/ascii-past-limit', false],
    ];
    const requests = sequence.map(([method, path], i) => `${method} ${path} HTTP/1.1\r\nHost: x\r\n${i === sequence.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('');
    const answers = split(
      await rawBytes(direct.port, requests),
      sequence.map(([, , head]) => head),
    );
    expect(answers.map((answer) => answer.headers.get('x-which'))).toStrictEqual(sequence.map(([, path]) => (path.startsWith('/slow/') ? `slow-${path.slice(6)}` : path.slice(6).split('?')[0])));
    for (const [i, [method, path]] of sequence.entries()) {
      const body = EDGES[path.split('/')[2]?.split('?')[0] ?? ''] as string;
      expect(answers[i]?.head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answers[i]?.body.equals(method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(body, 'utf8'))).toBe(true);
    }
  });

  it('a pipelined POST that expected 100 Continue, behind a slow answer, answered long: the 100 Continue first, then its answer whole', { timeout: 15_000 }, async () => {
    const body = 'x'.repeat(1000);
    const requests = [
      'GET /slow/ascii-past-limit HTTP/1.1\r\nHost: x\r\n\r\n',
      `POST /echo-long HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      `POST /echo-long?latin1 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      get('/edge/ascii-past-limit'),
    ].join('');
    const answers = split(await rawBytes(direct.port, requests), [false, false, false, false]);
    const heads = answers.map((answer) => answer.head.split('\r\n')[0]);
    const which = answers.map((answer) => answer.headers.get('x-which') ?? '');
    // Each 1xx before the final answer of its own request, never inside an answer's body.
    expect(which.filter((value) => value !== '')).toStrictEqual(['slow-ascii-past-limit', 'echo-1000', 'echo-1000', 'ascii-past-limit']);
    expect(heads.filter((head) => head === 'HTTP/1.1 200 OK')).toHaveLength(4);
    for (const answer of answers.filter((a) => a.headers.get('x-which')?.startsWith('echo'))) expect(answer.body.toString('utf8')).toBe('1000'.padEnd(L + 10, '✓'));
  });
});

describe('a long answer after an early close', () => {
  const opened = closedAfterEach();

  it('an early answer with a long body, then Connection: close and a lingering close: the whole answer arrives before the FIN', { timeout: 20_000 }, async () => {
    const server = (opened.server = await serveNode(
      new Hono().post('/refuse', (c) => c.text(LONG_ANSWER, 413)),
      { host: '127.0.0.1', port: 0 },
    ));
    const socket = connect(server.port, '127.0.0.1');
    opened.sockets.push(socket);
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    // A body announced and sent in part: the answer goes out early, and the rest of the body keeps coming.
    socket.write('POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n');
    socket.write('y'.repeat(100_000));
    const got = readSlowly(socket, 1024 * 1024, 10);
    const more = setInterval(() => socket.writable && socket.write('y'.repeat(10_000)), 20);
    const { received } = await got;
    clearInterval(more);
    expect(received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1')).toMatch(/^HTTP\/1\.1 413 .*\r\n[^]*connection: close/i);
    expect(bodyBytes(received).equals(Buffer.from(LONG_ANSWER, 'utf8'))).toBe(true);
  });
});

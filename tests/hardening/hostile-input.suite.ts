import { gzipSync } from 'node:zlib';
import { JSON_API_CONTENT_SECURITY_POLICY } from '@inkwell/adapters-http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseRawResponses, rawConnection, rawExchange, sleep, type RawResponse } from '../support/raw-http.js';
import type { InProcessServer, ServedInkwell, ServerTarget } from '../support/start-inkwell.js';
import { MiB, PASSWORD, aPost, alice } from '../support/fixtures.js';

/** Short server timeouts, so the slow-client tests take seconds; production keeps 10 s / 30 s. */
export const HOSTILE_TIMEOUTS = { headersMs: 2_000, requestMs: 4_000, keepAliveMs: 2_000, checkIntervalMs: 200 };

/** What a hostile request got: its status and error message. Kept for the closing report. */
export interface Outcome {
  readonly input: string;
  readonly status: number;
  readonly error?: string;
}

async function errorOf(res: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function expectJsonError(raw: RawResponse, status: number, error: string): void {
  expect({ status: raw.status, body: JSON.parse(raw.body) as unknown }).toStrictEqual({ status, body: { error } });
  expect(raw.headers['content-type']).toMatch(/^application\/json/);
}

/**
 * Hostile input against a real server socket: every case answers a 4xx, never a 5xx, a hang or
 * a crash, and the server keeps serving afterwards. The same cases run on a server in this
 * process and on server processes; where the server counts its repository calls (in process),
 * "before any query" is checked too.
 */
export function describeHostileInput(target: ServerTarget): void {
  // Each test a signup or two on a server that may be a cluster on a busy machine: 30 s unless it says more.
  describe(`hostile input over a real socket (${target.label})`, { timeout: 30_000 }, () => {
    let t: ServedInkwell;
    beforeAll(async () => {
      t = await target.start();
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const stillServing = async () => {
      const res = await fetch(`${t.url}/posts`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };

    describe('deeply nested JSON', () => {
      const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;
      const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

      it.each([
        ['POST /posts', 'POST', '/posts'],
        ['POST /auth/signup', 'POST', '/auth/signup'],
        ['POST /auth/login', 'POST', '/auth/login'],
      ])('answers 400 Validation failed for 10 000 levels inside a field (%s)', async (_label, method, path) => {
        const text = `{"title":${nested(10_000, '[', ']')},"body":"b","authorId":"a","email":${objects(10_000)},"password":${nested(10_000, '[', ']')}}`;
        const { status, body } = await errorOf(await t.send(method, path, text));
        expect(status).toBe(400);
        expect(body.error).toBe('Validation failed');
      });

      it('answers 400 for a 10 000-level object as the whole body, and 400 Invalid JSON body for a 10 000-level array', async () => {
        expect((await errorOf(await t.send('POST', '/posts', objects(10_000)))).status).toBe(400);
        const array = await errorOf(await t.send('POST', '/posts', nested(10_000, '[', ']')));
        expect(array).toStrictEqual({ status: 400, body: { error: 'Invalid JSON body' } });
      });

      it('answers 400 for 500 000 levels (as deep as 1 MiB allows), and keeps serving', async () => {
        const res = await t.send('POST', '/posts', `{"title":${nested(500_000, '[', ']')}}`);
        expect(res.status).toBe(400);
        expect(typeof (await res.json() as { error: unknown }).error).toBe('string');
        await stillServing();
      });
    });

    describe('a 50 MB body sent slowly, chunked, without Content-Length', () => {
      it('is answered 413 just past 1 MiB and the connection is closed, not held open', { timeout: 20_000 }, async () => {
        const conn = await rawConnection(t.port);
        conn.write(
          'POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
        const started = performance.now();
        let bodyBytes = 0;
        let writeFailed = false;
        conn.socket.on('error', () => (writeFailed = true));
        let bytesAtResponse: number | undefined;
        let answeredAt: number | undefined;
        const answered = conn.response(15_000).then((raw) => {
          bytesAtResponse = bodyBytes;
          answeredAt = performance.now();
          return raw;
        });
        let closedAt: number | undefined;
        void conn.closed.then((at) => (closedAt = at));
        // 64 KiB every 5 ms (about 12 MiB/s) until 50 MB are sent or the server hangs up.
        while (bodyBytes < 50_000_000 && closedAt === undefined && !writeFailed && !conn.socket.destroyed) {
          conn.write(frame);
          bodyBytes += chunk.length;
          await sleep(5);
        }
        const raw = await answered;
        const closedAtTime = await Promise.race([conn.closed, sleep(5_000).then(() => undefined)]);
        conn.socket.destroy();

        expectJsonError(raw, 413, 'Request body too large');
        expect(raw.headers.connection).toBe('close');
        // Measured: the 413 arrives right after 1 MiB, well before the upload could finish.
        expect(bytesAtResponse).toBeGreaterThan(MiB);
        expect(bytesAtResponse).toBeLessThan(2 * MiB);
        // The connection is closed by the server (after its lingering close), not kept open for the rest.
        expect(closedAtTime).toBeDefined();
        expect(bodyBytes).toBeLessThan(16 * MiB);
        measurements.slowUpload = {
          bodyBytesWhenAnswered: bytesAtResponse ?? -1,
          bodyBytesSentInTotal: bodyBytes,
          msToAnswer: Math.round((answeredAt ?? 0) - started),
          msFromAnswerToClose: Math.round((closedAtTime ?? 0) - (answeredAt ?? 0)),
        };
        await stillServing();
      });
    });

    describe('__proto__ and constructor keys', () => {
      const polluting =
        '{"__proto__":{"polluted":"yes","published":true},"constructor":{"prototype":{"polluted":"yes"}},' +
        '"title":"T","body":"B","authorId":"a"}';

      it('store nothing odd and pollute no prototype', async () => {
        const created = await t.send('POST', '/posts', polluting);
        expect(created.status).toBe(201);
        const { post } = (await created.json()) as { post: Record<string, unknown> };
        expect(Object.keys(post).sort()).toEqual(['authorId', 'body', 'createdAt', 'id', 'published', 'title', 'updatedAt']);
        expect(post.published).toBe(false);

        const patched = await t.send('PATCH', `/posts/${String(post.id)}`, '{"__proto__":{"title":"hijacked","published":true}}');
        expect(patched.status).toBe(200);
        const read = (await (await fetch(`${t.url}/posts/${String(post.id)}`)).json()) as { post: Record<string, unknown> };
        expect(read.post).toStrictEqual({ ...post, updatedAt: expect.any(Number) });
        expect(Object.keys(read.post).sort()).toEqual(Object.keys(post).sort());

        const signup = await t.send(
          'POST',
          '/auth/signup',
          `{"__proto__":{"passwordHash":"x","emailVerified":true,"createdAt":1},"emailVerified":true,"updatedAt":2,${JSON.stringify(alice).slice(1)}`,
        );
        expect(signup.status).toBe(201);
        const signedUp = (await signup.json()) as { token: string; user: object };
        expect(signedUp.user).toStrictEqual({ id: expect.any(String), email: alice.email, name: alice.name });
        // Neither the body nor its __proto__ sets what the account's state says.
        const state = (await (await fetch(`${t.url}/me/account`, { headers: { authorization: `Bearer ${signedUp.token}` } })).json()) as { account: Record<string, unknown> };
        expect(state.account).toStrictEqual({ ...signedUp.user, emailVerified: false, createdAt: expect.any(Number), updatedAt: state.account.createdAt });
        expect(state.account.createdAt).toBeGreaterThan(2);

        // A __proto__ object cannot supply the fields a body lacks.
        const login = await errorOf(await t.send('POST', '/auth/login', `{"__proto__":${JSON.stringify({ email: alice.email, password: alice.password })}}`));
        expect(login.status).toBe(400);
        expect(login.body.error).toBe('Validation failed');

        const query = await fetch(`${t.url}/posts?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=1`);
        expect(query.status).toBe(200);
        await query.arrayBuffer();

        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
        expect(Object.prototype).not.toHaveProperty('published');
      });
    });

    describe('MongoDB operators in place of strings', () => {
      it.each([
        ['login', 'POST', '/auth/login', { email: { $ne: null }, password: { $ne: null } }, ['email', 'password']],
        ['login with $gt', 'POST', '/auth/login', { email: { $gt: '' }, password: 'x' }, ['email']],
        ['signup', 'POST', '/auth/signup', { email: { $ne: null }, name: { $gt: '' }, password: { $regex: '.*' } }, ['email', 'name', 'password']],
        ['create post', 'POST', '/posts', { title: { $gt: '' }, body: { $where: '1' }, authorId: { $ne: null } }, ['title', 'body', 'authorId']],
      ])('are refused by validation before any query (%s)', async (_label, method, path, body, paths) => {
        await t.calls?.reset();
        const { status, body: answer } = await errorOf(await t.send(method, path, body));
        expect(status).toBe(400);
        expect(answer.error).toBe('Validation failed');
        expect([...new Set((answer.issues as { path: string }[]).map((issue) => issue.path))].sort()).toEqual([...paths].sort());
        if (t.calls) expect(t.calls.total()).toBe(0);
      });

      it('in a PATCH are refused before any write (the post is looked up first, by its path id)', async () => {
        const { post } = (await (await t.send('POST', '/posts', { ...aPost, published: true })).json()) as { post: { id: string } };
        await t.calls?.reset();
        const res = await errorOf(await t.send('PATCH', `/posts/${post.id}`, { title: { $gt: '' }, published: { $ne: false } }));
        expect(res.status).toBe(400);
        if (t.calls) expect([...t.calls.counts.keys()]).toEqual(['posts.findById']);
        const read = (await (await fetch(`${t.url}/posts/${post.id}`)).json()) as { post: unknown };
        expect(read.post).toEqual(post);
      });

      it('in the query string or the path are only strings: unknown parameters, or an id that names nothing', async () => {
        const list = await fetch(`${t.url}/posts?page[$ne]=1&perPage[$gt]=0`);
        expect(list.status).toBe(200);
        await list.arrayBuffer();
        const byId = await errorOf(await fetch(`${t.url}/posts/${encodeURIComponent('{"$ne":null}')}`));
        expect(byId).toStrictEqual({ status: 404, body: { error: 'Post not found' } });
      });
    });

    describe('text encodings', () => {
      it('answers 400 Invalid JSON body for invalid UTF-8', async () => {
        const bytes = Buffer.from(JSON.stringify({ ...aPost, title: 'XX' }), 'utf8');
        bytes[bytes.indexOf('XX')] = 0xff;
        expect(await errorOf(await t.send('POST', '/posts', new Uint8Array(bytes)))).toStrictEqual({
          status: 400,
          body: { error: 'Invalid JSON body' },
        });
      });

      it('answers 400 Validation failed for a lone surrogate escaped in a JSON string, on every text field', async () => {
        const res = await errorOf(await t.send('POST', '/posts', '{"title":"a\\ud800","body":"\\udfff","authorId":"x\\ud83d"}'));
        expect(res.status).toBe(400);
        expect((res.body.issues as { path: string }[]).map((issue) => issue.path).sort()).toEqual(['authorId', 'body', 'title']);
        const signup = await errorOf(await t.send('POST', '/auth/signup', `{"email":"z@example.com","name":"\\ud800","password":"pass\\udc00word"}`));
        expect((signup.body.issues as { path: string }[]).map((issue) => issue.path).sort()).toEqual(['name', 'password']);
      });

      it('stores and returns null bytes intact (title, body, author, name)', async () => {
        const fields = { title: 'nul\u0000title', body: '\u0000body\u0000', authorId: 'a\u0000b', published: true };
        const created = (await (await t.send('POST', '/posts', fields)).json()) as { post: { id: string } };
        const read = (await (await fetch(`${t.url}/posts/${created.post.id}`)).json()) as { post: Record<string, unknown> };
        expect(read.post).toMatchObject(fields);
        const signup = await t.send('POST', '/auth/signup', { email: 'nul@example.com', name: 'N\u0000ul', password: 'pass\u0000word' });
        const { token, user } = (await signup.json()) as { token: string; user: { name: string } };
        expect(user.name).toBe('N\u0000ul');
        const me = (await (await fetch(`${t.url}/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { user: { name: string } };
        expect(me.user.name).toBe('N\u0000ul');
        const login = await t.send('POST', '/auth/login', { email: 'nul@example.com', password: 'pass\u0000word' });
        expect(login.status).toBe(200);
        const truncated = await t.send('POST', '/auth/login', { email: 'nul@example.com', password: 'pass' });
        expect(truncated.status).toBe(401);
      });
    });

    describe('query strings', () => {
      it('answers 400 for a repeated page or perPage', async () => {
        for (const query of ['page=1&page=2', 'perPage=5&perPage=5', 'page=1&page=1']) {
          const { status, body } = await errorOf(await fetch(`${t.url}/posts?${query}`));
          expect(status).toBe(400);
          expect(body.error).toBe('Validation failed');
        }
      });

      it('ignores bracketed names as unknown parameters (page[]=, page[a]=)', async () => {
        for (const query of ['page[]=5', 'page[a]=5', 'page[]=1&page[]=2', 'perPage[0]=1000']) {
          const res = await fetch(`${t.url}/posts?${query}`);
          const body = (await res.json()) as { pagination: { page: number; perPage: number } };
          expect({ status: res.status, page: body.pagination.page, perPage: body.pagination.perPage }).toEqual({
            status: 200,
            page: 1,
            perPage: 20,
          });
        }
      });

      it('answers 200 or 400, never 500, for malformed percent-encoding', async () => {
        for (const query of ['page=%', 'page=%E0%A4%A', '%ZZ=1', 'page=1%00', 'perPage=%F0%9F%98']) {
          const res = await fetch(`${t.url}/posts?${query}`);
          expect([200, 400]).toContain(res.status);
          await res.arrayBuffer();
        }
      });
    });

    describe('long values', () => {
      it('answers 404 Post not found for a 10 000-character post id on GET, PATCH and DELETE', async () => {
        const id = 'x'.repeat(10_000);
        expect(await errorOf(await fetch(`${t.url}/posts/${id}`))).toStrictEqual({ status: 404, body: { error: 'Post not found' } });
        expect(await errorOf(await t.send('PATCH', `/posts/${id}`, { title: 'x' }))).toStrictEqual({
          status: 404,
          body: { error: 'Post not found' },
        });
        expect(await errorOf(await fetch(`${t.url}/posts/${id}`, { method: 'DELETE' }))).toStrictEqual({
          status: 404,
          body: { error: 'Post not found' },
        });
      });

      it('answers 431 in JSON to a 100 KB Authorization header and closes that connection', async () => {
        const conn = await rawConnection(t.port);
        conn.write(`GET /me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'a'.repeat(100 * 1024)}\r\n\r\n`);
        expectJsonError(await conn.response(), 431, 'Request headers too large');
        await conn.closed;
        await stillServing();
      });
    });

    describe('slowloris', () => {
      it('cuts clients sending headers a byte a second at the header timeout, while others are served', { timeout: 40_000 }, async () => {
        const head = 'GET /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'z'.repeat(100);
        const slow = await Promise.all(Array.from({ length: 20 }, () => rawConnection(t.port)));
        const started = performance.now();
        let sent = 0;
        const drip = setInterval(() => {
          for (const conn of slow) if (!conn.socket.destroyed) conn.write(head.charAt(sent));
          sent++;
        }, 1_000);
        try {
          // While they drip, other clients get answers at once.
          for (let i = 0; i < 5; i++) {
            const before = performance.now();
            await stillServing();
            expect(performance.now() - before).toBeLessThan(1_000);
            await sleep(200);
          }
          const answers = await Promise.all(slow.map((conn) => conn.response(t.timeouts.headersMs * 3)));
          const closedAt = await Promise.all(slow.map((conn) => conn.closed));
          for (const raw of answers) expectJsonError(raw, 408, 'Request timeout');
          const cutAfterMs = Math.max(...closedAt) - started;
          expect(cutAfterMs).toBeLessThan(t.timeouts.headersMs + 3 * t.timeouts.checkIntervalMs + 1_500);
          measurements.slowloris = { clients: slow.length, bytesSentEach: sent, cutAfterMs: Math.round(cutAfterMs) };
        } finally {
          clearInterval(drip);
          for (const conn of slow) conn.socket.destroy();
        }
        await stillServing();
      });
    });

    describe('pipelining, framing and the answers before any route', () => {
      /** A raw request: the head's lines, and a body sent with `Content-Length`. */
      const request = (head: string, body = '', headers: string[] = []) =>
        [head, 'Host: 127.0.0.1', ...headers, ...(body === '' ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]), '', body].join('\r\n');
      const createPost = async (title: string) => {
        const res = await t.send('POST', '/posts', { ...aPost, title, published: true });
        expect(res.status).toBe(201);
        return ((await res.json()) as { post: { id: string } }).post.id;
      };
      const postStatus = async (id: string) => (await fetch(`${t.url}/posts/${id}`)).status;
      /** Whether a published post titled `title` exists (the titles here are unique to each test). */
      const stored = async (title: string) => {
        const { posts } = (await (await fetch(`${t.url}/posts?perPage=100`)).json()) as { posts: { title: string }[] };
        return posts.some((post) => post.title === title);
      };
      const summary = (responses: readonly RawResponse[]) => responses.map((raw) => `${raw.status} ${raw.headers.connection}`);
      /** Every answer written before any route runs is the API's: JSON, the security headers, the date. */
      const expectContractAnswer = (raw: RawResponse, status: number, error: string) => {
        expectJsonError(raw, status, error);
        expect(raw.headers['x-content-type-options']).toBe('nosniff');
        expect(raw.headers['content-security-policy']).toBe(JSON_API_CONTENT_SECURITY_POLICY);
        expect(Number.isNaN(Date.parse(raw.headers.date ?? ''))).toBe(false);
      };

      it('answers a request whose body came with it in full, keeping the connection, and the request pipelined after it', async () => {
        const [a, b] = [await createPost('pipelined A'), await createPost('pipelined B')];
        const exchange = await rawExchange(t.port, [`${request(`DELETE /posts/${a} HTTP/1.1`, '{}')}${request(`DELETE /posts/${b} HTTP/1.1`)}`], 2);
        expect(summary(exchange.responses)).toEqual(['204 keep-alive', '204 keep-alive']);
        expect([await postStatus(a), await postStatus(b)]).toEqual([404, 404]);
      });

      it('answers a 415 and a valid POST /posts pipelined after it, in order', async () => {
        const post = JSON.stringify({ ...aPost, title: 'after a 415', published: true });
        const refused = request('POST /posts HTTP/1.1', '{}').replace('application/json', 'text/plain');
        const exchange = await rawExchange(t.port, [`${refused}${request('POST /posts HTTP/1.1', post)}`], 2);
        expect(summary(exchange.responses)).toEqual(['415 keep-alive', '201 keep-alive']);
        expect(await stored('after a 415')).toBe(true);
      });

      it('runs no request pipelined after an answer that closed the connection: the client asked, or the body was refused', async () => {
        const post = (title: string) => request('POST /posts HTTP/1.1', JSON.stringify({ ...aPost, title, published: true }));
        const asked = await rawExchange(t.port, [`${request('GET /posts HTTP/1.1', '', ['Connection: close'])}${post('after Connection: close')}`], 2);
        expect(summary(asked.responses)).toEqual(['200 close']);
        expect(asked.closedByServer).toBe(true);

        const frame = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
        const head = 'POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
        // The 413 goes out while the body is still arriving; what follows it is never parsed.
        const conn = await rawConnection(t.port, { halfOpen: true });
        conn.write(Buffer.concat([Buffer.from(head), ...Array<Buffer>(17).fill(frame)]));
        const refused = await conn.response();
        expect([refused.status, refused.headers.connection]).toEqual([413, 'close']);
        const seen = conn.received().length;
        conn.write(`0\r\n\r\n${post('after a 413')}`);
        conn.socket.end();
        await conn.gone;
        expect(conn.received().slice(seen)).toBe('');
        expect([await stored('after Connection: close'), await stored('after a 413')]).toEqual([false, false]);
      });

      it('answers the requests before what the parser refuses, then the refusal: a signup pipelined before 20 KB of headers gets its 201', async () => {
        const signup = JSON.stringify({ email: 'pipelined-signup@example.com', name: 'Pipelined', password: PASSWORD });
        const tooLarge = request('GET /posts HTTP/1.1', '', [`X-Large: ${'h'.repeat(20 * 1024)}`]);
        const exchange = await rawExchange(t.port, [`${request('POST /auth/signup HTTP/1.1', signup)}${tooLarge}`], 2, 5_000);
        expect(summary(exchange.responses)).toEqual(['201 keep-alive', '431 close']);
        expect(exchange.closedByServer).toBe(true);
        expectContractAnswer(exchange.responses[1] as RawResponse, 431, 'Request headers too large');
      });

      it('answers the requests pipelined before a CONNECT first, in order, then the 405: a signup gets its 201', { timeout: 30_000 }, async () => {
        const signup = JSON.stringify({ email: 'before-connect@example.com', name: 'Before', password: PASSWORD });
        const connect = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n';
        const afterSignup = await rawExchange(t.port, [`${request('POST /auth/signup HTTP/1.1', signup)}${connect}`], 2, 20_000);
        expect(afterSignup.responses.map((raw) => raw.status)).toEqual([201, 405]);
        expect(afterSignup.closedByServer).toBe(true);
        expectContractAnswer(afterSignup.responses[1] as RawResponse, 405, 'Method not allowed');
        // The account exists, once.
        expect((await t.send('POST', '/auth/signup', signup)).status).toBe(409);
        const afterGet = await rawExchange(t.port, [`${request('GET /health/live HTTP/1.1')}${request('GET /posts HTTP/1.1')}${connect}GET /posts HTTP/1.1\r\nHost: x\r\n\r\n`], 4);
        expect(afterGet.responses.map((raw) => raw.status)).toEqual([200, 200, 405]);
      });

      it('still answers ordinary pipelined requests in order, on HTTP/1.1 and HTTP/1.0', async () => {
        const three = await rawExchange(t.port, [`${request('GET /posts?page=1 HTTP/1.1')}${request('GET /posts/no-such-post HTTP/1.1')}${request('GET /nowhere HTTP/1.1')}`], 3);
        expect(three.responses.map((raw) => `${raw.status} ${raw.body}`)).toEqual(['200 ' + three.responses[0]?.body, '404 {"error":"Post not found"}', '404 {"error":"Not found"}']);
        const old = await rawExchange(t.port, ['GET /posts HTTP/1.0\r\n\r\n'], 1);
        expect({ answers: summary(old.responses), closed: old.closedByServer }).toEqual({ answers: ['200 close'], closed: true });
      });

      it.each([
        ['an HTTP/1.1 request without Host', 'GET /posts HTTP/1.1\r\n\r\n', 400, 'Bad request'],
        ['an expectation other than 100-continue', 'GET /posts HTTP/1.1\r\nHost: x\r\nExpect: a-pony\r\n\r\n', 417, 'Expectation failed'],
        ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, 'Method not allowed'],
        ['a request line the parser refuses', 'GET /posts HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'Bad request'],
      ])('answers %s in JSON, with the security headers and the date', async (_label, text, status, error) => {
        const { responses } = await rawExchange(t.port, [text], 1);
        expect(responses).toHaveLength(1);
        expectContractAnswer(responses[0] as RawResponse, status, error);
        if (status === 405) expect(responses[0]?.headers.allow).toBe('');
        await stillServing();
      });

      it('answers 415 to a compressed body, real or not, stores nothing, and takes Content-Encoding: identity', async () => {
        const fields = { ...aPost, title: 'compressed', published: true };
        for (const body of [JSON.stringify(fields), new Uint8Array(gzipSync(JSON.stringify(fields)))]) {
          for (const encoding of ['gzip', 'identity, gzip', 'br']) {
            const res = await t.send('POST', '/posts', body, { 'content-encoding': encoding });
            expect({ encoding, ...(await errorOf(res)) }).toStrictEqual({ encoding, status: 415, body: { error: 'Content-Encoding must be identity' } });
            expect(res.headers.get('accept-encoding')).toBe('identity');
          }
        }
        expect(await stored('compressed')).toBe(false);
        expect((await t.send('POST', '/posts', fields, { 'content-encoding': 'identity' })).status).toBe(201);
      });

      it('sends 100 Continue only for a body it reads: 413 at once for an oversized Content-Length, 201 for a valid one', async () => {
        const expecting = (length: number) => `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;
        const oversized = await rawExchange(t.port, [expecting(2 * MiB)], 1);
        expect(oversized.responses.map((raw) => raw.status)).toEqual([413]);
        expectJsonError(oversized.responses[0] as RawResponse, 413, 'Request body too large');

        const post = JSON.stringify({ ...aPost, title: 'after 100 Continue', published: true });
        const conn = await rawConnection(t.port);
        const answers = async (count: number) => {
          while (parseRawResponses(conn.received()).length < count && !conn.socket.destroyed) await sleep(10);
          return parseRawResponses(conn.received()).map((raw) => raw.status);
        };
        conn.write(expecting(post.length));
        expect(await answers(1)).toEqual([100]);
        conn.write(post);
        expect(await answers(2)).toEqual([100, 201]);
        conn.socket.destroy();
        expect(await stored('after 100 Continue')).toBe(true);
      });
    });

    describe('the session and account endpoints', () => {
      const account = { email: 'hostile-sessions@example.com', name: 'Hostile', password: PASSWORD };
      /** The signup's session, and a login's: each test leaves both live unless it says otherwise. */
      let main = '';
      let second = '';
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      const liveSessionIds = async () => {
        const res = await fetch(`${t.url}/me/sessions`, { headers: as(main) });
        expect(res.status).toBe(200);
        return ((await res.json()) as { sessions: { id: string }[] }).sessions.map((session) => session.id).sort();
      };
      /** Both sessions still work, and the account has exactly the sessions it had. */
      const unchanged = async (sessionIds: string[]) => {
        for (const token of [main, second]) expect((await fetch(`${t.url}/me`, { headers: as(token) })).status).toBe(200);
        expect(await liveSessionIds()).toEqual(sessionIds);
      };
      const logIn = async (password = account.password) => {
        const res = await t.send('POST', '/auth/login', { email: account.email, password });
        expect(res.status).toBe(200);
        return ((await res.json()) as { token: string }).token;
      };
      /** Whatever a client sends as the body, the token is checked first: these bodies break every body rule. */
      const bodiesThatBreakTheRules: [string, string | Uint8Array, string][] = [
        ['2 MiB', JSON.stringify({ scope: 'all', padding: 'x'.repeat(2 * MiB) }), 'application/json'],
        ['text/plain', '{"scope":"all"}', 'text/plain'],
        ['malformed JSON', '{"scope":', 'application/json'],
        ['an array 10 000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json'],
        ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'],
      ];
      /** The new endpoints that take a token, as a method and a path; all but GET may be sent a body. */
      const withToken: [string, string, string][] = [
        ['POST /auth/logout', 'POST', '/auth/logout'],
        ['POST /auth/refresh', 'POST', '/auth/refresh'],
        ['POST /auth/password', 'POST', '/auth/password'],
        ['DELETE /me/sessions/{id}', 'DELETE', '/me/sessions/some-id'],
        ['PATCH /me', 'PATCH', '/me'],
        ['DELETE /me', 'DELETE', '/me'],
      ];
      /** The endpoints that read a body once the token passed. */
      const withBody = withToken.filter(([label]) => !/refresh|sessions/.test(label));

      beforeAll(async () => {
        const signup = await t.send('POST', '/auth/signup', account);
        expect(signup.status).toBe(201);
        main = ((await signup.json()) as { token: string }).token;
        second = await logIn();
      }, 30_000);

      it.each(withToken)('without a token, %s answers 401 before any body rule and any query', async (_label, method, path) => {
        await t.calls?.reset();
        for (const [what, body, type] of bodiesThatBreakTheRules) {
          for (const [headers, error, challenge] of [
            [{}, 'Missing authorization header', 'Bearer realm="inkwell"'],
            [{ authorization: `Basic ${Buffer.from(`${account.email}:${account.password}`).toString('base64')}` }, 'Missing authorization header', 'Bearer realm="inkwell"'],
            [{ authorization: 'Bearer not.a-token.at-all' }, 'Invalid token', 'Bearer realm="inkwell", error="invalid_token"'],
          ] as const) {
            const res = await t.send(method, path, body, { 'content-type': type, ...headers });
            expect({ what, ...(await errorOf(res)) }).toStrictEqual({ what, status: 401, body: { error } });
            expect(res.headers.get('www-authenticate')).toBe(challenge);
          }
        }
        for (const path of ['/me/sessions', '/me/account']) {
          expect({ path, ...(await errorOf(await fetch(`${t.url}${path}`))) }).toStrictEqual({ path, status: 401, body: { error: 'Missing authorization header' } });
        }
        if (t.calls) expect(t.calls.total()).toBe(0);
        await stillServing();
      });

      it.each(withBody)('without a token, %s answers 401 at once to a body that never comes', async (_label, method, path) => {
        const conn = await rawConnection(t.port);
        conn.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"scope":`);
        // Reading the body first would wait for it until the request timeout (4 s here, 30 s in production).
        const raw = await conn.response(1_500);
        conn.socket.destroy();
        expectJsonError(raw, 401, 'Missing authorization header');
        expect(raw.headers['www-authenticate']).toBe('Bearer realm="inkwell"');
      });

      it.each(withBody)('with a valid token, %s refuses bad bodies by the body rules, after the token check alone', async (_label, method, path) => {
        const before = await liveSessionIds();
        const expected: Record<string, [number, string]> = {
          '2 MiB': [413, 'Request body too large'],
          'text/plain': [415, 'Content-Type must be application/json'],
        };
        for (const [what, body, type] of [
          ...bodiesThatBreakTheRules,
          ['an array', '["all"]', 'application/json'],
          ['null', 'null', 'application/json'],
          ['a string', '"all"', 'application/json'],
        ] as [string, string | Uint8Array, string][]) {
          await t.calls?.reset();
          const [status, error] = expected[what] ?? [400, 'Invalid JSON body'];
          expect({ what, ...(await errorOf(await t.send(method, path, body, { 'content-type': type, ...as(main) }))) }).toStrictEqual({
            what,
            status,
            body: { error },
          });
          if (t.calls) expect([...t.calls.counts.keys()]).toEqual(['users.findWithSession']);
        }
        await unchanged(before);
      });

      it.each([
        ['POST /auth/logout', 'POST', '/auth/logout', ['scope']],
        ['POST /auth/password', 'POST', '/auth/password', ['currentPassword', 'newPassword']],
        ['PATCH /me', 'PATCH', '/me', ['currentPassword', 'email', 'name']],
        ['DELETE /me', 'DELETE', '/me', ['currentPassword']],
      ])('answers 400 Validation failed for 10 000 levels inside a field (%s)', async (_label, method, path, paths) => {
        const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
        const text = `{"scope":${deep},"currentPassword":${deep},"newPassword":${deep},"name":${deep},"email":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
        const { status, body } = await errorOf(await t.send(method, path, text, as(main)));
        expect({ status, error: body.error }).toStrictEqual({ status: 400, error: 'Validation failed' });
        expect([...new Set((body.issues as { path: string }[]).map((issue) => issue.path))].sort()).toEqual(paths);
      });

      it.each([
        ['logout, an operator', 'POST', '/auth/logout', { scope: { $ne: null } }, ['scope']],
        ['logout, a list', 'POST', '/auth/logout', { scope: ['all'] }, ['scope']],
        ['logout, a number', 'POST', '/auth/logout', { scope: 1 }, ['scope']],
        ['logout, no such scope', 'POST', '/auth/logout', { scope: 'ALL' }, ['scope']],
        ['logout, a scope with a null byte', 'POST', '/auth/logout', { scope: 'all\u0000' }, ['scope']],
        ['logout, __proto__ as the scope', 'POST', '/auth/logout', { scope: '__proto__' }, ['scope']],
        ['password, operators', 'POST', '/auth/password', { currentPassword: { $ne: null }, newPassword: { $gt: '' } }, ['currentPassword', 'newPassword']],
        ['password, wrong types', 'POST', '/auth/password', { currentPassword: 12345678, newPassword: true }, ['currentPassword', 'newPassword']],
        ['password, null and 73 characters', 'POST', '/auth/password', { currentPassword: null, newPassword: 'n'.repeat(73) }, ['currentPassword', 'newPassword']],
        ['password, missing', 'POST', '/auth/password', {}, ['currentPassword', 'newPassword']],
        ['PATCH /me, operators', 'PATCH', '/me', { name: { $ne: null }, email: { $gt: '' }, currentPassword: { $ne: null } }, ['currentPassword', 'email', 'name']],
        ['PATCH /me, an e-mail without the password', 'PATCH', '/me', { email: 'taken-over@example.com' }, ['currentPassword']],
        ['PATCH /me, empty and over-long', 'PATCH', '/me', { name: '', email: `${'e'.repeat(250)}@example.com`, currentPassword: '' }, ['currentPassword', 'email', 'name']],
        ['PATCH /me, a 900 000-character name', 'PATCH', '/me', { name: 'n'.repeat(900_000) }, ['name']],
        ['DELETE /me, an operator', 'DELETE', '/me', { currentPassword: { $ne: null } }, ['currentPassword']],
        ['DELETE /me, a list', 'DELETE', '/me', { currentPassword: [account.password] }, ['currentPassword']],
        ['DELETE /me, missing', 'DELETE', '/me', { password: account.password }, ['currentPassword']],
      ] as [string, string, string, Record<string, unknown>, string[]][])(
        'refuses wrong types, MongoDB operators and odd strings by validation after the token check alone (%s)',
        async (_label, method, path, body, paths) => {
          const before = await liveSessionIds();
          await t.calls?.reset();
          const { status, body: answer } = await errorOf(await t.send(method, path, body, as(main)));
          expect({ status, error: answer.error }).toStrictEqual({ status: 400, error: 'Validation failed' });
          expect([...new Set((answer.issues as { path: string }[]).map((issue) => issue.path))].sort()).toEqual(paths);
          if (t.calls) expect([...t.calls.counts.keys()]).toEqual(['users.findWithSession']);
          await unchanged(before);
        },
      );

      it('answers 400 Validation failed for a lone surrogate escaped in any text field', async () => {
        for (const [method, path, text, paths] of [
          ['POST', '/auth/logout', '{"scope":"\\ud800"}', ['scope']],
          ['POST', '/auth/password', '{"currentPassword":"\\ud800","newPassword":"pass\\udc00word"}', ['currentPassword', 'newPassword']],
          ['PATCH', '/me', '{"name":"\\ud800x"}', ['name']],
          ['PATCH', '/me', '{"email":"new-address@example.com","currentPassword":"\\udfff"}', ['currentPassword']],
          ['DELETE', '/me', '{"currentPassword":"x\\ud83d"}', ['currentPassword']],
        ] as const) {
          const { status, body } = await errorOf(await t.send(method, path, text, as(main)));
          expect({ path, status, error: body.error }).toStrictEqual({ path, status: 400, error: 'Validation failed' });
          expect((body.issues as { path: string }[]).map((issue) => issue.path).sort()).toEqual(paths);
        }
      });

      it('answers 403 to a wrong current password of 900 000 characters, and changes nothing', async () => {
        const before = await liveSessionIds();
        const wrong = 'p'.repeat(900_000);
        for (const [method, path, body] of [
          ['POST', '/auth/password', { currentPassword: wrong, newPassword: 'a new passphrase' }],
          ['DELETE', '/me', { currentPassword: wrong }],
          ['PATCH', '/me', { email: 'moved@example.com', currentPassword: wrong }],
        ] as const) {
          expect(await errorOf(await t.send(method, path, body, as(main)))).toStrictEqual({
            status: 403,
            body: { error: 'Current password is incorrect' },
          });
        }
        await unchanged(before);
        const me = (await (await fetch(`${t.url}/me`, { headers: as(main) })).json()) as { user: { email: string } };
        expect(me.user.email).toBe(account.email);
      });

      it('ignores __proto__ and constructor keys: no field is taken from them, no prototype is touched', async () => {
        const before = await liveSessionIds();
        const patched = await t.send(
          'PATCH',
          '/me',
          '{"__proto__":{"name":"hijacked","email":"hijacked@example.com","passwordHash":"x","emailVerified":true},"constructor":{"prototype":{"polluted":"yes"}},"name":"Proto","emailVerified":true,"createdAt":1}',
          as(main),
        );
        expect(patched.status).toBe(200);
        expect(await patched.json()).toStrictEqual({ user: { id: expect.any(String), email: account.email, name: 'Proto' } });
        const state = (await (await fetch(`${t.url}/me/account`, { headers: as(main) })).json()) as { account: Record<string, unknown> };
        expect(state.account).toMatchObject({ email: account.email, name: 'Proto', emailVerified: false });
        expect(state.account.createdAt).toBeGreaterThan(1);

        // A __proto__ object cannot supply the fields a body lacks.
        const smuggled = JSON.stringify({ currentPassword: account.password, newPassword: 'hijacked passphrase' });
        for (const [method, path, paths] of [
          ['POST', '/auth/password', ['currentPassword', 'newPassword']],
          ['DELETE', '/me', ['currentPassword']],
        ] as const) {
          const { status, body } = await errorOf(await t.send(method, path, `{"__proto__":${smuggled},"constructor":${smuggled}}`, as(main)));
          expect({ status, error: body.error }).toStrictEqual({ status: 400, error: 'Validation failed' });
          expect([...new Set((body.issues as { path: string }[]).map((issue) => issue.path))].sort()).toEqual(paths);
        }
        await unchanged(before);

        // Nor a scope: this logout ends its own session only, as with no scope at all.
        const third = await logIn();
        const logout = await t.send('POST', '/auth/logout', '{"__proto__":{"scope":"all"},"constructor":{"scope":"all"}}', as(third));
        expect(logout.status).toBe(204);
        expect(await errorOf(await fetch(`${t.url}/me`, { headers: as(third) }))).toStrictEqual({ status: 401, body: { error: 'Invalid token' } });
        await unchanged(before);

        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
        expect(Object.prototype).not.toHaveProperty('scope');
        expect(Object.prototype).not.toHaveProperty('currentPassword');
      });

      it('answers 404 Session not found for odd session ids (10 000 characters, encoded slashes, %00, operators, $-paths) and ends nothing', async () => {
        const before = await liveSessionIds();
        const ids = [
          'x'.repeat(10_000),
          'a%2Fb',
          '%2F',
          '%00',
          'a%00b',
          encodeURIComponent('{"$ne":null}'),
          // What MongoDB's aggregation would read as a variable or a field path, were it not taken literally.
          encodeURIComponent('$$this.id'),
          encodeURIComponent('$'),
          encodeURIComponent('$$ROOT'),
          encodeURIComponent('$id'),
          '%ED%A0%80', // a lone surrogate in UTF-8
          '%E0%A4%A', // broken percent-encoding
          '%FF',
          '__proto__',
          'constructor',
          'hasOwnProperty',
        ];
        for (const id of ids) {
          const answer = await errorOf(await fetch(`${t.url}/me/sessions/${id}`, { method: 'DELETE', headers: as(main) }));
          expect({ id: id.slice(0, 40), ...answer }).toStrictEqual({ id: id.slice(0, 40), status: 404, body: { error: 'Session not found' } });
        }
        await unchanged(before);

        await t.calls?.reset();
        for (const id of ids) {
          const answer = await errorOf(await fetch(`${t.url}/me/sessions/${id}`, { method: 'DELETE' }));
          expect({ id: id.slice(0, 40), ...answer }).toStrictEqual({ id: id.slice(0, 40), status: 401, body: { error: 'Missing authorization header' } });
        }
        if (t.calls) expect(t.calls.total()).toBe(0);
      });

      it('answers POST /auth/refresh, which reads no body, as if it had none', async () => {
        const res = await t.send('POST', '/auth/refresh', 'x'.repeat(2 * MiB), { 'content-type': 'text/plain', ...as(second) });
        expect(res.status).toBe(200);
        expect(await res.json()).toStrictEqual({ token: expect.any(String), user: { id: expect.any(String), email: account.email, name: expect.any(String) } });
        await stillServing();
      });

      it('stores and checks a new password with null bytes intact', async () => {
        const newPassword = 'new\u0000passphrase';
        const changed = await t.send('POST', '/auth/password', { currentPassword: account.password, newPassword }, as(main));
        expect(changed.status).toBe(200);
        // The other session ended with the change; this one goes on.
        expect(await errorOf(await fetch(`${t.url}/me`, { headers: as(second) }))).toStrictEqual({ status: 401, body: { error: 'Invalid token' } });
        expect((await fetch(`${t.url}/me`, { headers: as(main) })).status).toBe(200);
        for (const password of ['new', account.password]) {
          expect(await errorOf(await t.send('POST', '/auth/login', { email: account.email, password }))).toStrictEqual({
            status: 401,
            body: { error: 'Invalid email or password' },
          });
        }
        await logIn(newPassword);
      });
    });

    describe('the mail endpoints', () => {
      const account = { email: 'hostile-mail@example.com', name: 'Hostile', password: PASSWORD };
      const newPassword = 'a hostile new passphrase';
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      let session = '';
      /** The links mailed to the account, read from the server's `log:` mail lines. */
      const links = { reset: '', verification: '' };
      const linkIn = async (page: 'reset-password' | 'verify-email', after = '') => {
        let token = '';
        await vi.waitFor(
          () => {
            const mailed = t.log
              .records()
              .map((record) => record.mail as { to?: string; link?: string } | undefined)
              .filter((mail) => mail?.to === account.email && mail.link?.includes(`/${page}?`))
              .map((mail) => new URL(String(mail?.link)).searchParams.get('token') ?? '');
            token = mailed.at(-1) ?? '';
            expect(token).not.toBe(after);
            expect(token).toMatch(/^[\w-]{43}$/);
          },
          { timeout: 10_000, interval: 50 },
        );
        return token;
      };
      const BODY_ENDPOINTS: [string, string, string[]][] = [
        ['POST /auth/password-reset', '/auth/password-reset', ['email']],
        ['POST /auth/password-reset/confirm', '/auth/password-reset/confirm', ['newPassword', 'token']],
        ['POST /auth/verify-email', '/auth/verify-email', ['token']],
      ];
      const issuePaths = (body: Record<string, unknown>) => [...new Set((body.issues as { path: string }[]).map((issue) => issue.path))].sort();

      beforeAll(async () => {
        const signup = await t.send('POST', '/auth/signup', account);
        expect(signup.status).toBe(201);
        session = ((await signup.json()) as { token: string }).token;
        links.verification = await linkIn('verify-email');
        // A reset asked for in the millisecond the password was set is not sent.
        if ('clock' in t) (t as InProcessServer).clock.advance(1);
        expect((await t.send('POST', '/auth/password-reset', { email: account.email })).status).toBe(202);
        links.reset = await linkIn('reset-password');
      }, 30_000);

      it.each(BODY_ENDPOINTS)('%s refuses bodies that break the body rules before any query', async (_label, path) => {
        await t.calls?.reset();
        for (const [what, body, type, status, error] of [
          ['2 MiB', JSON.stringify({ email: account.email, token: links.reset, newPassword, padding: 'x'.repeat(2 * MiB) }), 'application/json', 413, 'Request body too large'],
          ['text/plain', JSON.stringify({ email: account.email, token: links.reset, newPassword }), 'text/plain', 415, 'Content-Type must be application/json'],
          ['malformed JSON', '{"token":', 'application/json', 400, 'Invalid JSON body'],
          ['an array 10 000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json', 400, 'Invalid JSON body'],
          ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 'application/json', 400, 'Invalid JSON body'],
          ['an array', JSON.stringify([links.reset]), 'application/json', 400, 'Invalid JSON body'],
          ['a string', JSON.stringify(links.reset), 'application/json', 400, 'Invalid JSON body'],
        ] as [string, string | Uint8Array, string, number, string][]) {
          expect({ what, ...(await errorOf(await t.send('POST', path, body, { 'content-type': type }))) }).toStrictEqual({ what, status, body: { error } });
        }
        if (t.calls) expect(t.calls.total()).toBe(0);
        await stillServing();
      });

      it.each(BODY_ENDPOINTS)('%s answers 400 Validation failed for 10 000 levels inside a field', async (_label, path, paths) => {
        const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
        const text = `{"token":${deep},"newPassword":${deep},"email":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
        const { status, body } = await errorOf(await t.send('POST', path, text));
        expect({ status, error: body.error, paths: issuePaths(body) }).toStrictEqual({ status: 400, error: 'Validation failed', paths });
      });

      it.each([
        ['reset, an operator', '/auth/password-reset', { email: { $ne: null } }, ['email']],
        ['reset, a regular expression', '/auth/password-reset', { email: { $regex: '.*' } }, ['email']],
        ['reset, a list', '/auth/password-reset', { email: [account.email] }, ['email']],
        ['reset, 900 000 characters', '/auth/password-reset', { email: `${'e'.repeat(900_000)}@example.com` }, ['email']],
        ['reset, a lone surrogate', '/auth/password-reset', { email: 'hostile-mail\ud800@example.com' }, ['email']],
        ['confirm, operators', '/auth/password-reset/confirm', { token: { $ne: null }, newPassword: { $gt: '' } }, ['newPassword', 'token']],
        ['confirm, an operator for the token', '/auth/password-reset/confirm', { token: { $exists: true }, newPassword }, ['token']],
        ['confirm, a list of tokens', '/auth/password-reset/confirm', { token: ['x', 'y'], newPassword }, ['token']],
        ['confirm, a 900 000-character token', '/auth/password-reset/confirm', { token: 't'.repeat(900_000), newPassword }, ['token']],
        ['confirm, the real token with a 73-byte password', '/auth/password-reset/confirm', { token: '{reset}', newPassword: 'n'.repeat(73) }, ['newPassword']],
        ['confirm, the real token with a lone surrogate in the password', '/auth/password-reset/confirm', { token: '{reset}', newPassword: 'pass\udc00word' }, ['newPassword']],
        ['confirm, an empty token and no password', '/auth/password-reset/confirm', { token: '' }, ['newPassword', 'token']],
        ['verify, an operator', '/auth/verify-email', { token: { $ne: null } }, ['token']],
        ['verify, an object', '/auth/verify-email', { token: { tokenHash: 'x' } }, ['token']],
        ['verify, a number', '/auth/verify-email', { token: 42 }, ['token']],
        ['verify, a 900 000-character token', '/auth/verify-email', { token: 't'.repeat(900_000) }, ['token']],
      ] as [string, string, Record<string, unknown>, string[]][])(
        'refuses wrong types, MongoDB operators and odd strings by validation before any query, and uses no token (%s)',
        async (_label, path, body, paths) => {
          await t.calls?.reset();
          const text = JSON.stringify(body).replace('"{reset}"', JSON.stringify(links.reset));
          const { status, body: answer } = await errorOf(await t.send('POST', path, text));
          expect({ status, error: answer.error, paths: issuePaths(answer) }).toStrictEqual({ status: 400, error: 'Validation failed', paths });
          if (t.calls) expect(t.calls.total()).toBe(0);
        },
      );

      it('refuses tokens that are not the link\'s, however close or odd, with 400 Invalid or expired token, and uses none', async () => {
        for (const path of ['/auth/password-reset/confirm', '/auth/verify-email']) {
          const real = path.includes('confirm') ? links.reset : links.verification;
          for (const token of [`${real}\u0000`, `\u0000${real}`, `${real}\ud800`, `${real.slice(0, -1)}`, `${real}=`, real.toUpperCase(), '$$ROOT', '.*', '__proto__', 't'.repeat(256)]) {
            const answer = await errorOf(await t.send('POST', path, { token, newPassword }));
            expect({ token: token.slice(0, 60), ...answer }).toStrictEqual({ token: token.slice(0, 60), status: 400, body: { error: 'Invalid or expired token' } });
          }
        }
      });

      it('takes no field from __proto__ or constructor keys, and pollutes no prototype', async () => {
        const smuggled = JSON.stringify({ email: account.email, token: links.reset, newPassword });
        for (const [path, paths] of BODY_ENDPOINTS.map(([, path, paths]) => [path, paths] as const)) {
          const { status, body } = await errorOf(await t.send('POST', path, `{"__proto__":${smuggled},"constructor":${smuggled}}`));
          expect({ path, status, error: body.error, paths: issuePaths(body) }).toStrictEqual({ path, status: 400, error: 'Validation failed', paths });
        }
        expect(Object.prototype).not.toHaveProperty('token');
        expect(Object.prototype).not.toHaveProperty('newPassword');
      });

      it('POST /me/verify-email answers 401 without a token before any query, whatever the body, and at once to a body that never comes', async () => {
        await t.calls?.reset();
        for (const [body, type] of [
          [JSON.stringify({ padding: 'x'.repeat(2 * MiB) }), 'application/json'],
          ['{"token":', 'text/plain'],
          [new Uint8Array([0xff, 0xfe]), 'application/json'],
        ] as [string | Uint8Array, string][]) {
          for (const [headers, error] of [
            [{}, 'Missing authorization header'],
            [{ authorization: 'Bearer not.a-token.at-all' }, 'Invalid token'],
            [{ authorization: `Bearer ${links.verification}` }, 'Invalid token'],
          ] as const) {
            expect(await errorOf(await t.send('POST', '/me/verify-email', body, { 'content-type': type, ...headers }))).toStrictEqual({ status: 401, body: { error } });
          }
        }
        if (t.calls) expect(t.calls.total()).toBe(0);
        const conn = await rawConnection(t.port);
        conn.write('POST /me/verify-email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
        const raw = await conn.response(1_500);
        conn.socket.destroy();
        expectJsonError(raw, 401, 'Missing authorization header');
      });

      it('the links still work after all of the above, once each', async () => {
        const verified = await t.send('POST', '/auth/verify-email', { token: links.verification });
        expect(verified.status).toBe(200);
        expect(await verified.json()).toStrictEqual({
          account: { id: expect.any(String), email: account.email, name: account.name, emailVerified: true, createdAt: expect.any(Number), updatedAt: expect.any(Number) },
        });
        const reset = await t.send('POST', '/auth/password-reset/confirm', { token: links.reset, newPassword });
        expect(reset.status).toBe(200);
        expect(await errorOf(await fetch(`${t.url}/me`, { headers: as(session) }))).toStrictEqual({ status: 401, body: { error: 'Invalid token' } });
        for (const [path, token] of [['/auth/password-reset/confirm', links.reset], ['/auth/verify-email', links.verification]] as const) {
          expect(await errorOf(await t.send('POST', path, { token, newPassword }))).toStrictEqual({ status: 400, body: { error: 'Invalid or expired token' } });
        }
      });
    });

    describe('the pages a mailed link opens', () => {
      const PAGES = ['/reset-password', '/verify-email'];
      const ODD_TOKENS: [string, string][] = [
        ['long', `token=${'A'.repeat(6_000)}`],
        ['quoted', `token=${encodeURIComponent(`"'><\`x`)}`],
        ['script', `token=${encodeURIComponent('</script><script>alert(document.domain)</script>')}`],
        ['an HTML entity', `token=${encodeURIComponent('&lt;b&gt;&#x27;')}`],
        ['unicode', `token=${encodeURIComponent('\u202e🔑\u0000é\ufeff')}`],
        ['repeated', 'token=first&token=second&token=%3Cscript%3E'],
        ['malformed percent-encoding', 'token=%ZZ%E0%A4%A'],
        ['empty', 'token='],
      ];

      it('answer odd token values with the one static page, the same bytes and headers as without any: nothing is reflected', async () => {
        for (const path of PAGES) {
          const plain = await fetch(`${t.url}${path}`);
          const page = await plain.text();
          expect({ path, status: plain.status, type: plain.headers.get('content-type') }).toStrictEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
          for (const [label, query] of ODD_TOKENS) {
            const res = await fetch(`${t.url}${path}?${query}`);
            const body = await res.text();
            expect({ path, label, status: res.status, same: body === page, csp: res.headers.get('content-security-policy'), cache: res.headers.get('cache-control') }).toStrictEqual({
              path,
              label,
              status: 200,
              same: true,
              csp: plain.headers.get('content-security-policy'),
              cache: 'no-store',
            });
          }
        }
      });

      it('answer a request line with raw quotes and angle brackets with the same page, or refuse it, and never reflect it', async () => {
        for (const path of PAGES) {
          const page = await (await fetch(`${t.url}${path}`)).text();
          const { responses } = await rawExchange(t.port, [`GET ${path}?token="'><script>alert(1)</script>&token=\`\x7f HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`], 1);
          expect(responses).toHaveLength(1);
          const [answer] = responses as [RawResponse];
          if (answer.status === 200) expect(Buffer.from(answer.body, 'latin1').toString('utf8')).toBe(page);
          else expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toStrictEqual({ status: 400, body: { error: 'Bad request' } });
          expect(answer.body).not.toContain('alert(1)');
        }
      });

      it('use nothing when opened with a real link: the link still works after', async () => {
        const account = { email: 'hostile-pages@example.com', name: 'Pages', password: PASSWORD };
        expect((await t.send('POST', '/auth/signup', account)).status).toBe(201);
        let link = '';
        await vi.waitFor(
          () => {
            const mailed = t.log.records().map((record) => record.mail as { to?: string; link?: string } | undefined).find((mail) => mail?.to === account.email);
            link = mailed?.link ?? '';
            expect(link).toContain('/verify-email?token=');
          },
          { timeout: 10_000, interval: 50 },
        );
        const token = new URL(link).searchParams.get('token') ?? '';
        for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/verify-email?token=${token}`)).status).toBe(200);
        expect((await fetch(`${t.url}/verify-email?token=${token}`, { method: 'HEAD' })).status).toBe(200);
        expect((await t.send('POST', '/auth/verify-email', { token })).status).toBe(200);
        // The access lines name the page's path, never its query.
        await sleep(200); // a server process writes its log lines in batches
        const opened = t.log.records().filter((record) => record.msg === 'request' && record.path === '/verify-email');
        expect(opened.length).toBeGreaterThanOrEqual(4);
        expect(JSON.stringify(opened)).not.toContain(token);
      });

      it("point development links at the server's own address whatever Host or X-Forwarded-* a request names", async () => {
        const email = 'hostile-host@example.com';
        const body = JSON.stringify({ email, name: 'Host', password: PASSWORD });
        const headers = [
          'Host: evil.example',
          'X-Forwarded-Host: evil.example:8443',
          'X-Forwarded-Proto: https',
          'X-Forwarded-Port: 8443',
          'X-Forwarded-Prefix: /phish',
          'Forwarded: for=1.2.3.4;host=evil.example;proto=https',
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
          'Connection: close',
        ];
        const { responses } = await rawExchange(t.port, [`POST /auth/signup HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n${body}`], 1, 15_000);
        expect(responses.map((response) => response.status)).toEqual([201]);
        let link = '';
        await vi.waitFor(
          () => {
            const mailed = t.log.records().map((record) => record.mail as { to?: string; link?: string } | undefined).find((mail) => mail?.to === email);
            link = mailed?.link ?? '';
            expect(link).not.toBe('');
          },
          { timeout: 10_000, interval: 50 },
        );
        expect(link).toMatch(new RegExp(`^${t.url.replace(/[.[\]]/g, '\\$&')}/verify-email\\?token=[\\w-]{43}$`));
        expect(link).not.toContain('evil');
      });
    });

    describe('floods of what sends mail, or tells which e-mails have accounts', () => {
      const account = { name: 'Flood', password: PASSWORD };
      /** A fresh account of the suite's, signed up over this socket: its e-mail and the Authorization its token gives. */
      const freshAccount = async (email: string) => {
        const signup = await t.send('POST', '/auth/signup', { ...account, email });
        expect(signup.status).toBe(201);
        return { authorization: `Bearer ${((await signup.json()) as { token: string }).token}` };
      };

      // Real bcrypt on a server process: a dozen password checks.
      it('lets exactly 3 of 10 concurrent e-mail changes of one account through, the rest 429 with Retry-After, changing nothing more', { timeout: 60_000 }, async () => {
        const auth = await freshAccount('flood-mover@example.com');
        await freshAccount('flood-taken@example.com');
        const answers = await Promise.all(
          Array.from({ length: 10 }, async (_, i) => errorOf(await t.send('PATCH', '/me', { email: i % 2 ? 'flood-taken@example.com' : `flood-${i}@example.net`, currentPassword: account.password }, auth))),
        );
        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status !== 429)).toHaveLength(3);
        expect(statuses.every((status) => [200, 409, 429].includes(status))).toBe(true);
        for (const answer of answers.filter((one) => one.status === 429)) expect(answer.body).toStrictEqual({ error: 'Too many attempts, try again later' });
        const refused = await t.send('PATCH', '/me', { email: 'flood-late@example.net', currentPassword: account.password }, auth);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
        expect(refused.status).toBe(429);
        const me = (await (await fetch(`${t.url}/me`, { headers: auth })).json()) as { user: { email: string } };
        expect(me.user.email).not.toBe('flood-late@example.net');
      });

      it('lets exactly 3 of 10 concurrent reset requests for one e-mail from one client through, whether or not it has an account; the rest 429', { timeout: 60_000 }, async () => {
        await freshAccount('flood-reset@example.com');
        for (const email of ['flood-reset@example.com', 'flood-nobody@example.com']) {
          const answers = await Promise.all(Array.from({ length: 10 }, async () => errorOf(await t.send('POST', '/auth/password-reset', { email }))));
          expect(answers.map((answer) => answer.status).sort()).toEqual([...Array<number>(3).fill(202), ...Array<number>(7).fill(429)]);
          expect(answers.filter((answer) => answer.status === 202).map((answer) => answer.body)).toEqual([{}, {}, {}]);
        }
        await stillServing();
      });
    });

    describe('conditional and idempotency headers', () => {
      /** A raw request with the given header lines, and a JSON body when one is given (as latin-1 bytes: what a raw client writes). */
      const raw = (head: string, headers: readonly string[], body = '') =>
        Buffer.from(
          [head, 'Host: 127.0.0.1', ...headers, ...(body === '' ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]), '', body].join('\r\n'),
          'latin1',
        );
      const one = async (request: Buffer) => {
        const { responses } = await rawExchange(t.port, [request], 1);
        expect(responses).toHaveLength(1);
        return responses[0] as RawResponse;
      };
      const livePost = async () => {
        const res = await t.send('POST', '/posts', { ...aPost, published: true });
        expect(res.status).toBe(201);
        return { id: ((await res.json()) as { post: { id: string } }).post.id, etag: res.headers.get('etag') as string };
      };
      const etagOf = async (id: string) => (await fetch(`${t.url}/posts/${id}`)).headers.get('etag');
      const body = JSON.stringify({ title: 'Hostile' });
      const invalidIfMatch = 'If-Match must be * or a list of entity tags';
      const invalidKey = 'Idempotency-Key must be 1 to 255 visible ASCII characters';

      it('answers repeated If-Match lines as one list: a list of tags is a condition, * among tags is 400', async () => {
        const { id, etag } = await livePost();
        expectJsonError(await one(raw(`PATCH /posts/${id} HTTP/1.1`, ['If-Match: "77"', 'If-Match: "78"'], body)), 412, 'Precondition failed');
        expectJsonError(await one(raw(`PATCH /posts/${id} HTTP/1.1`, ['If-Match: *', `If-Match: ${etag}`], body)), 400, invalidIfMatch);
        const applied = await one(raw(`PATCH /posts/${id} HTTP/1.1`, ['If-Match: "77"', `If-Match: ${etag}`], body));
        expect(applied.status).toBe(200);
        expect(await etagOf(id)).toBe(applied.headers.etag);
      });

      it('answers a repeated Idempotency-Key 400, whatever the lines say, and stores nothing', async () => {
        const post = JSON.stringify({ ...aPost, title: 'Twice keyed', published: true });
        for (const lines of [['Idempotency-Key: a', 'Idempotency-Key: a'], ['Idempotency-Key: a', 'Idempotency-Key: b']]) {
          expectJsonError(await one(raw('POST /posts HTTP/1.1', lines, post)), 400, invalidKey);
        }
        const { posts } = (await (await fetch(`${t.url}/posts?perPage=100`)).json()) as { posts: { title: string }[] };
        expect(posts.filter((listed) => listed.title === 'Twice keyed')).toEqual([]);
      });

      it('answers keys of other characters 400: latin-1, UTF-8, spaces, and past 255 characters', async () => {
        const post = JSON.stringify(aPost);
        for (const key of ['caf\u00e9', Buffer.from('café', 'utf8').toString('latin1'), 'a b', 'k'.repeat(256), 'k'.repeat(8000)]) {
          expectJsonError(await one(raw('POST /posts HTTP/1.1', [`Idempotency-Key: ${key}`], post)), 400, invalidKey);
        }
        expect((await one(raw('POST /posts HTTP/1.1', [`Idempotency-Key: ${'k'.repeat(255)}`], post))).status).toBe(201);
      });

      it('takes entity tags with obs-text as tags that match nothing, and refuses control characters in the parser', async () => {
        const { id, etag } = await livePost();
        expectJsonError(await one(raw(`PATCH /posts/${id} HTTP/1.1`, ['If-Match: "caf\u00e9"'], body)), 412, 'Precondition failed');
        expect((await one(raw(`GET /posts/${id} HTTP/1.1`, ['If-None-Match: "caf\u00e9"']))).status).toBe(200);
        expectJsonError(await one(raw(`PATCH /posts/${id} HTTP/1.1`, ['If-Match: "\u0001"'], body)), 400, 'Bad request');
        expect(await etagOf(id)).toBe(etag);
      });

      it('answers a list of 1 800 tags (14 KB, under the 16 KB header limit) at once: 412, 304 or 400, never a 5xx', async () => {
        const { id, etag } = await livePost();
        const many = Array.from({ length: 1800 }, (_, i) => `"${i + 1000}"`).join(',');
        const started = performance.now();
        expectJsonError(await one(raw(`PATCH /posts/${id} HTTP/1.1`, [`If-Match: ${many}`], body)), 412, 'Precondition failed');
        expect((await one(raw(`GET /posts/${id} HTTP/1.1`, [`If-None-Match: ${many},${etag}`]))).status).toBe(304);
        expectJsonError(await one(raw(`DELETE /posts/${id} HTTP/1.1`, [`If-Match: ${many},*`])), 400, invalidIfMatch);
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(await etagOf(id)).toBe(etag);
      });

      it('answers 431 to an If-Match past the header limit, and keeps serving', async () => {
        const { id } = await livePost();
        const conn = await rawConnection(t.port);
        conn.write(`DELETE /posts/${id} HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-Match: ${'"1",'.repeat(30_000)}"1"\r\n\r\n`);
        expectJsonError(await conn.response(), 431, 'Request headers too large');
        await conn.closed;
        expect((await fetch(`${t.url}/posts/${id}`)).status).toBe(200);
      });
    });

    it('answered none of the above with a 5xx and logged no unexpected error', async () => {
      await sleep(200); // a server process writes its log lines in batches
      const records = t.log.records();
      const requests = records.filter((record) => record.msg === 'request');
      expect(requests.length).toBeGreaterThan(40);
      expect(requests.filter((record) => Number(record.status) >= 500)).toEqual([]);
      expect(records.filter((record) => Number(record.level) >= 50)).toEqual([]);
    });
  });
}

/** Numbers the hostile-input tests measured, printed by the test file for the report. */
export const measurements: {
  slowUpload?: { bodyBytesWhenAnswered: number; bodyBytesSentInTotal: number; msToAnswer: number; msFromAnswerToClose: number };
  slowloris?: { clients: number; bytesSentEach: number; cutAfterMs: number };
} = {};

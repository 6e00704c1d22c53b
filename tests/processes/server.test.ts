// The app's own startServer on a real socket in this process, with real bcrypt: a client's
// requests end to end, and the body limits over the wire.
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createLogger, startServer, type RunningServer } from '@inkwell/app';
import { MiB, TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';

const TOO_LARGE = { error: 'Request body too large' };

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Body bytes the client had handed to the socket when the response arrived. */
  readonly bytesWritten: number;
}

/**
 * A POST over a fresh connection with node:http. `declaredLength` sends a Content-Length and no
 * body at all; otherwise `chunks` × 64 KiB are written with chunked encoding, honouring
 * backpressure, until the response arrives or everything is written.
 */
function rawPost(
  url: string,
  options: { declaredLength: number } | { chunks: number; pauseEveryMs?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const headers: Record<string, string> = { 'content-type': 'application/json', connection: 'close' };
    if ('declaredLength' in options) headers['content-length'] = String(options.declaredLength);
    const req = request(url, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      answered = true;
      const bytesWritten = written;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytesWritten });
        req.destroy();
      });
      res.on('error', reject);
    });
    // Once the answer is in, a reset of the upload is expected; before it, it is a failure.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });

    if ('declaredLength' in options) {
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && !req.destroyed && written < options.chunks * chunk.length) {
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
        if (options.pauseEveryMs !== undefined && written % (8 * chunk.length) === 0) {
          setTimeout(pump, options.pauseEveryMs);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    pump();
  });
}

describe('the real server over sockets', () => {
  let server: RunningServer;
  let token: string;
  let userId: string;
  let postId: string;

  const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
  const sendJson = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const expectJson = async (res: Response, status: number, body: unknown) => {
    const parsed: unknown = await res.json();
    expect({ status: res.status, body: parsed }).toStrictEqual({ status, body });
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    return parsed;
  };

  beforeAll(async () => {
    server = await startServer(
      readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'test' }),
      createLogger('silent'),
    );
  });

  afterAll(async () => {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('server.close() did not finish within 5 s')), 5_000);
    });
    try {
      await Promise.race([server.close(), hung]);
    } finally {
      clearTimeout(timer);
    }
  });

  it('listens on a real port of 127.0.0.1', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('signs up (real bcrypt, cost 12)', { timeout: 30_000 }, async () => {
    const res = await sendJson('POST', '/auth/signup', {
      email: ' Alice@Example.COM ',
      name: 'Alice',
      password: 'correct horse battery staple',
    });
    const body = (await expectJson(res, 201, {
      token: expect.any(String),
      user: { id: expect.any(String), email: 'alice@example.com', name: 'Alice' },
    })) as { user: { id: string } };
    userId = body.user.id;
  });

  it('logs in, and refuses a wrong password', { timeout: 30_000 }, async () => {
    const res = await sendJson('POST', '/auth/login', { email: 'alice@example.com', password: 'correct horse battery staple' });
    const body = (await expectJson(res, 200, {
      token: expect.any(String),
      user: { id: userId, email: 'alice@example.com', name: 'Alice' },
    })) as { token: string };
    token = body.token;
    await expectJson(await sendJson('POST', '/auth/login', { email: 'alice@example.com', password: 'nope nope' }), 401, {
      error: 'Invalid email or password',
    });
  });

  it('answers GET /me for the token, and 401 without one', async () => {
    await expectJson(await call('/me', { headers: { authorization: `Bearer ${token}` } }), 200, {
      user: { id: userId, email: 'alice@example.com', name: 'Alice' },
    });
    await expectJson(await call('/me'), 401, { error: 'Missing authorization header' });
    await expectJson(await call('/me', { headers: { authorization: 'Bearer ' } }), 401, { error: 'Invalid token' });
  });

  it('creates, lists, reads, patches and deletes a post', async () => {
    const created = (await expectJson(await sendJson('POST', '/posts', { title: 'Hello', body: 'World', authorId: userId }), 201, {
      post: {
        id: expect.any(String),
        title: 'Hello',
        body: 'World',
        authorId: userId,
        published: false,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
    })) as { post: { id: string; createdAt: number } };
    postId = created.post.id;

    await expectJson(await call('/posts'), 200, { posts: [], pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 } });
    await expectJson(await call(`/posts/${postId}`), 200, created);

    const patched = (await expectJson(
      await sendJson('PATCH', `/posts/${postId}`, { published: true, title: 'Hello again' }, { 'content-type': 'application/json; charset=utf-8' }),
      200,
      { post: { ...created.post, title: 'Hello again', published: true, updatedAt: expect.any(Number) } },
    )) as { post: { updatedAt: number } };
    expect(patched.post.updatedAt).toBeGreaterThanOrEqual(created.post.createdAt);

    await expectJson(await call('/posts?perPage=5'), 200, {
      posts: [patched.post],
      pagination: { total: 1, page: 1, perPage: 5, lastPage: 1 },
    });

    const deleted = await call(`/posts/${postId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('content-type')).toBeNull();
    expect(await deleted.text()).toBe('');
    await expectJson(await call(`/posts/${postId}`), 404, { error: 'Post not found' });
  });

  it('answers 404 for an unknown route and 405 with an Allow header for a known path', async () => {
    await expectJson(await call('/nope'), 404, { error: 'Not found' });
    const res = await call('/posts', { method: 'DELETE' });
    expect((res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort()).toEqual(['GET', 'HEAD', 'POST']);
    await expectJson(res, 405, { error: 'Method not allowed' });
  });

  it('answers 415 and 400 for bad bodies', async () => {
    await expectJson(await call('/posts', { method: 'POST', body: 'hello' }), 415, {
      error: 'Content-Type must be application/json',
    });
    await expectJson(await call('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }), 400, {
      error: 'Invalid JSON body',
    });
  });

  it('answers 413 to a Content-Length over 1 MiB before the body is sent', async () => {
    const res = await rawPost(`${server.url}/posts`, { declaredLength: MiB + 1 });
    expect(res.bytesWritten).toBe(0);
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toStrictEqual({ status: 413, body: TOO_LARGE });
    expect(res.headers['content-type'] ?? '').toMatch(/^application\/json/);
  });

  it('answers 413 to a chunked body of 5 MiB without reading it all, and stays healthy', { timeout: 15_000 }, async () => {
    const res = await rawPost(`${server.url}/posts`, { chunks: 80 }); // 80 × 64 KiB = 5 MiB
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toStrictEqual({ status: 413, body: TOO_LARGE });
    expect(res.headers['content-type'] ?? '').toMatch(/^application\/json/);

    await expectJson(await call('/posts'), 200, { posts: [], pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 } });
  });

  it('answers 413 long before a 64 MiB chunked upload is finished', { timeout: 15_000 }, async () => {
    const res = await rawPost(`${server.url}/posts`, { chunks: 1024 }); // 1024 × 64 KiB = 64 MiB
    expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toStrictEqual({ status: 413, body: TOO_LARGE });
    expect(res.bytesWritten).toBeLessThan(32 * MiB);
  });

  it('answers 413 to a slow chunked upload too, and to several at once', { timeout: 15_000 }, async () => {
    const results = await Promise.all([
      rawPost(`${server.url}/auth/signup`, { chunks: 40, pauseEveryMs: 5 }),
      rawPost(`${server.url}/auth/login`, { chunks: 80 }),
      rawPost(`${server.url}/posts`, { chunks: 80 }),
    ]);
    for (const res of results) expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toStrictEqual({ status: 413, body: TOO_LARGE });
    await expectJson(await sendJson('POST', '/posts', { title: 'After', body: 'the storm', authorId: userId, published: true }), 201, {
      post: expect.objectContaining({ title: 'After', published: true }),
    });
  });

  it('accepts a chunked body of exactly 1 MiB', { timeout: 15_000 }, async () => {
    const base = JSON.stringify({ title: 'Big', body: '', authorId: userId });
    const text = JSON.stringify({ title: 'Big', body: 'b'.repeat(MiB - Buffer.byteLength(base)), authorId: userId });
    expect(Buffer.byteLength(text)).toBe(MiB);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.byteLength; i += 100_000) controller.enqueue(bytes.slice(i, i + 100_000));
        controller.close();
      },
    });
    const res = await call('/posts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { post: { body: string } }).post.body).toHaveLength(MiB - Buffer.byteLength(base));
  });
});

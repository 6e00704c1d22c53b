// inkwell and MongoDB over time: start-up against an unreachable database and one that comes
// back (real processes), a DB_URL the driver refuses, an outage under an app in this process, and
// a real server process's listening line, SIGTERM and restart.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createLogger } from '@inkwell/app';
import { jsonRecords, startInkwell, type ChildRun } from '../support/start-inkwell.js';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';


/** A JSON request to `base`, answering its status and body. */
async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

const NEW_POST = { title: 'After the outage', body: 'b', authorId: 'a', published: true };

describe('start-up against an unreachable MongoDB', () => {
  let running: ChildRun | undefined;
  afterEach(async () => {
    await running?.kill();
    running = undefined;
  });

  it('serves all the same: liveness 200, readiness 503, requests 503, with one warn line that names the URL without its password, whatever it holds', async () => {
    // An unencoded quote and space in the password, as people write them.
    const password = 'Quote"S3cret with spaces';
    running = await startInkwell({
      in: 'child',
      ready: 'spawned',
      store: { url: `mongodb://inkwell:${password}@127.0.0.1:1/?authSource=admin` },
      env: { JWT_SECRET },
    });
    const base = await running.listening(20_000);
    expect(await call(base, 'GET', '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await call(base, 'GET', '/health')).toEqual({ status: 503, body: { status: 'unavailable' } });
    for (const [method, path, body] of [['GET', '/posts'], ['GET', '/posts/x'], ['POST', '/posts', NEW_POST]] as const) {
      expect({ method, path, ...(await call(base, method, path, body)) }).toEqual({ method, path, status: 503, body: { error: 'Service unavailable' } });
    }
    const warnings = jsonRecords(running.lines).filter((record) => String(record.msg).includes('cannot reach MongoDB'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
    expect(warnings[0]?.msg).toContain('mongodb://inkwell:***@127.0.0.1:1/?authSource=admin');
    expect(running.lines.join('\n')).not.toMatch(/S3cret|with spaces/);
    expect(running.process.exitCode).toBeNull();
  }, 30_000);

  it('exits 1 at once, with one line and no password, for a DB_URL the driver refuses: a configuration error', async () => {
    const started = Date.now();
    running = await startInkwell({ in: 'child', ready: 'spawned', store: { url: 'mongodb://inkwell:hunter2:secret@127.0.0.1:1/' }, env: { JWT_SECRET } });
    expect(await running.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    const failure = running.lines.filter((line) => line.includes('DB_URL cannot be used'));
    expect(failure).toHaveLength(1);
    expect(failure[0]).toContain('MongoParseError');
    expect(failure[0]).toContain('pnpm dev');
    expect(running.lines.join('\n')).not.toContain('hunter2');
  }, 20_000);
});

describe.skipIf(!mongoTest)('a process started while its MongoDB is down', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy | undefined;
  let running: ChildRun | undefined;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterEach(async () => {
    await running?.kill();
    await proxy?.close();
    running = undefined;
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  it('keeps connecting and serves once the database is back, saying so in one line with the 503s answered meanwhile', async () => {
    proxy = await startMongoProxy(mongo.url);
    await proxy.goDown();
    running = await startInkwell({ in: 'child', ready: 'spawned', store: { url: proxy.url, database: mongo.database }, env: { JWT_SECRET } });
    const base = await running.listening(20_000);
    expect((await call(base, 'GET', '/health')).status).toBe(503);
    for (let i = 0; i < 3; i++) expect((await call(base, 'POST', '/posts', NEW_POST)).status).toBe(503);

    await proxy.comeBack();
    await vi.waitFor(async () => expect((await call(base, 'GET', '/health')).status).toBe(200), { timeout: 10_000, interval: 100 });
    const created = await call(base, 'POST', '/posts', NEW_POST);
    expect(created.status).toBe(201);
    expect((await call(base, 'GET', `/posts/${(created.body as { post: { id: string } }).post.id}`)).status).toBe(200);

    // Lines reach stdout in batches, within 100 ms.
    await running.waitForLine(/store: reachable again/, 5000);
    const lines = jsonRecords(running.lines).filter((record) => String(record.msg).includes('cannot reach MongoDB') || String(record.msg).startsWith('store: '));
    expect(lines.map((record) => [record.level, String(record.msg).split(' (')[0]?.split(':')[0]])).toEqual([
      [40, 'store'],
      [40, 'store'],
    ]);
    expect(lines[0]?.msg).toMatch(/^store: cannot reach MongoDB at /);
    expect(lines[1]).toMatchObject({ msg: expect.stringMatching(/^store: reachable again after/) as unknown });
    expect(lines[1]?.answered503).toBeGreaterThanOrEqual(3);
  }, 40_000);
});

describe.skipIf(!mongoTest)('MongoDB outage under a running app', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy;
  let inkwell: Inkwell;

  beforeAll(async () => {
    mongo = await withTestMongo();
    proxy = await startMongoProxy(mongo.url);
    const config = readConfig({ DB_URL: proxy.url, DB_DATABASE: mongo.database, JWT_SECRET });
    inkwell = await createInkwell(config, createLogger('silent'));
  });
  afterAll(async () => {
    await inkwell?.close();
    await proxy?.close();
    await mongo?.cleanup();
  });

  const createPost = () =>
    inkwell.app.request('/posts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survives', body: 'outage', authorId: 'a', published: true }),
    });

  it('answers 503 quickly while the database is gone, stays up, and recovers on its own', async () => {
    const created = await createPost();
    expect(created.status).toBe(201);
    const { post } = (await created.json()) as { post: { id: string } };
    expect((await inkwell.app.request('/health')).status).toBe(200);

    await proxy.goDown();
    for (const path of [`/posts/${post.id}`, '/posts']) {
      const started = Date.now();
      const response = await inkwell.app.request(path);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: 'Service unavailable' });
    }
    const writeDuringOutage = await createPost();
    expect(writeDuringOutage.status).toBe(503);
    // The failed-login limit is counted in the database: it cannot count, so the login fails closed.
    const loginDuringOutage = await inkwell.app.request('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', password: 'a guess' }),
    });
    expect({ status: loginDuringOutage.status, body: await loginDuringOutage.json() }).toEqual({
      status: 503,
      body: { error: 'Service unavailable' },
    });
    const health = await inkwell.app.request('/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'unavailable' });

    await proxy.comeBack();
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await inkwell.app.request(`/posts/${post.id}`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    expect(await (await inkwell.app.request('/health')).json()).toEqual({ status: 'ok' });
    expect(((await (await inkwell.app.request('/posts')).json()) as { pagination: { total: number } }).pagination.total).toBe(1);
  }, 40_000);
});

describe.skipIf(!mongoTest)('a real server process on MongoDB', () => {
  let mongo: TestMongo;
  let running: ChildRun | undefined;

  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterEach(async () => {
    await running?.kill();
    running = undefined;
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  const start = async () => {
    // No drain: what a stop under load keeps is drain.integration.test.ts's to show.
    running = await startInkwell({ in: 'child', ready: 'spawned', store: mongo, env: { JWT_SECRET, SHUTDOWN_DRAIN_SECONDS: '0' } });
    return running.listening();
  };

  it('logs the listening line with the store, the database name and the posts access mode', async () => {
    await start();
    expect(running?.lines.some((line) => line.includes(`(store: mongodb (${mongo.database}), posts: open)`))).toBe(true);
  }, 30_000);

  it('finishes an in-flight request on SIGTERM, closes, and exits 0', async () => {
    const base = await start();
    const server = running as ChildRun;
    const body = JSON.stringify({ title: 'Slow', body: 'sent in two halves', authorId: 'a', published: true });

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // The request is now in flight: stop the server, then finish the body a little later.
      setTimeout(() => {
        server.process.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 200);
    });

    const { status, body: text } = await response;
    expect(status).toBe(201);
    expect(JSON.parse(text).post.title).toBe('Slow');
    expect(await server.exited).toBe(0);
    expect(server.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  }, 30_000);

  it('keeps everything written by one process for the next one on the same database', async () => {
    const json = { 'content-type': 'application/json' };
    let base = await start();
    const signup = await fetch(`${base}/auth/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'persist@example.com', name: 'Persist', password: 'persist-pass' }),
    });
    expect(signup.status).toBe(201);
    const { user } = (await signup.json()) as { user: unknown };
    const written = [];
    for (const [i, published] of [true, false, true].entries()) {
      const response = await fetch(`${base}/posts`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: `Post ${i}`, body: `Body ${i} \u0000 🎉`, authorId: 'persist', published }),
      });
      written.push(((await response.json()) as { post: { id: string } }).post);
    }
    const patched = await fetch(`${base}/posts/${written[0]?.id}`, { method: 'PATCH', headers: json, body: '{"title":"Edited"}' });
    written[0] = ((await patched.json()) as { post: { id: string } }).post;
    const listBefore = await (await fetch(`${base}/posts`)).json();

    running?.process.kill('SIGTERM');
    expect(await running?.exited).toBe(0);
    base = await start();

    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'persist@example.com', password: 'persist-pass' }),
    });
    expect(login.status).toBe(200);
    const { token, user: loggedIn } = (await login.json()) as { token: string; user: unknown };
    expect(loggedIn).toEqual(user);
    expect(await (await fetch(`${base}/me`, { headers: { authorization: `Bearer ${token}` } })).json()).toEqual({ user });
    for (const post of written) {
      expect(await (await fetch(`${base}/posts/${post.id}`)).json()).toEqual({ post });
    }
    expect(await (await fetch(`${base}/posts`)).json()).toEqual(listBefore);
  }, 60_000);
});

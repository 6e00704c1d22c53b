// The hashing pool as the app wires it: real bcryptjs at cost 12 in worker threads, sized and
// bounded by HASH_WORKERS and HASH_QUEUE_MAX. Each test keeps to a handful of hashes.
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createLogger } from '@inkwell/app';
import { TEST_JWT_SECRET as JWT_SECRET, alice } from '../support/fixtures.js';


describe('password hashing in the worker pool, over HTTP', { timeout: 30_000 }, () => {
  let inkwell: Inkwell | undefined;
  afterEach(async () => {
    await inkwell?.close();
    inkwell = undefined;
  });

  const start = async (env: Record<string, string>) => {
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'test', ...env });
    inkwell = await createInkwell(config, createLogger('silent'));
    return inkwell;
  };
  const send = async (app: Inkwell['app'], path: string, body: unknown): Promise<Response> =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const logIn = (app: Inkwell['app']) => send(app, '/auth/login', { email: alice.email, password: alice.password });

  it('signs up and logs in through the pool', async () => {
    const { app } = await start({ HASH_WORKERS: '1', HASH_QUEUE_MAX: '4' });
    expect((await send(app, '/auth/signup', alice)).status).toBe(201);
    const res = await logIn(app);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token: expect.any(String), user: { email: alice.email } });
  });

  it('answers 503 "Server busy, try again" with Retry-After when the queue is full, and serves again after', async () => {
    const { app } = await start({ HASH_WORKERS: '1', HASH_QUEUE_MAX: '0' });
    expect((await send(app, '/auth/signup', alice)).status).toBe(201);

    // Which request reaches the pool first is up to the event loop: count outcomes, not positions.
    const logins = await Promise.all([logIn(app), logIn(app), logIn(app)]);
    expect(logins.map((res) => res.status).sort()).toEqual([200, 503, 503]);
    for (const busy of logins.filter((res) => res.status === 503)) {
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.headers.get('content-type') ?? '').toMatch(/^application\/json/);
      expect(await busy.json()).toStrictEqual({ error: 'Server busy, try again' });
    }

    const people = ['bob', 'carol', 'dave'].map((name) => ({ ...alice, email: `${name}@example.com` }));
    const signups = await Promise.all(people.map((person) => send(app, '/auth/signup', person)));
    expect(signups.map((res) => res.status).sort()).toEqual([201, 503, 503]);
    // A refused signup stored nothing: once the thread is free, the same signup goes through.
    const refused = people.filter((_, i) => signups[i]?.status === 503);
    for (const person of refused) expect((await send(app, '/auth/signup', person)).status).toBe(201);
  });

  it('answers a GET while logins are still hashing', async () => {
    const { app } = await start({ HASH_WORKERS: '1', HASH_QUEUE_MAX: '8' });
    expect((await send(app, '/auth/signup', alice)).status).toBe(201);

    let settled = 0;
    const logins = Array.from({ length: 4 }, () => logIn(app).finally(() => settled++));
    const read = await app.request('/posts');
    const settledWhenReadAnswered = settled;
    expect(read.status).toBe(200);
    expect(settledWhenReadAnswered).toBe(0);
    expect((await Promise.all(logins)).map((res) => res.status)).toEqual([200, 200, 200, 200]);
  });

  it('closes the pool with the app: a login after close() is refused, not hashed', async () => {
    const app = (await start({ HASH_WORKERS: '1', HASH_QUEUE_MAX: '4' })).app;
    expect((await send(app, '/auth/signup', alice)).status).toBe(201);
    await inkwell?.close();
    inkwell = undefined;
    expect((await logIn(app)).status).toBe(503);
  });
});

// A real server process whose database goes away, stops answering, and comes back, under load:
// readiness says so within a second, liveness never does, and no request answers 500.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';
import { readsAndWrites, startTraffic, tally } from '../support/traffic.js';

/** The status and body of `path`, and how long the answer took. */
async function timed(server: ChildServer, path: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json(), ms: performance.now() - started };
}

describe.skipIf(!mongoTest)('a server process whose database misbehaves', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy;
  let server: ChildServer;
  let postId: string;

  beforeAll(async () => {
    mongo = await withTestMongo();
    proxy = await startMongoProxy(mongo.url);
    server = await startInkwell({ in: 'child', store: { url: proxy.url, database: mongo.database }, env: { JWT_SECRET } });
    const created = await server.send('POST', '/posts', { title: 'Outage', body: 'b', authorId: 'a', published: true });
    postId = ((await created.json()) as { post: { id: string } }).post.id;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await mongo?.cleanup();
  });

  it('answers readiness 503 within a second and liveness 200 while the database is gone or silent, and 200 again once it is back', async () => {
    expect(await timed(server, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });

    await proxy.goDown();
    for (const readiness of [await timed(server, '/health'), await timed(server, '/health')]) {
      expect(readiness).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(readiness.ms).toBeLessThan(1000);
    }
    expect(await timed(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    await proxy.comeBack();
    await vi.waitFor(async () => expect((await timed(server, '/health')).status).toBe(200), { timeout: 5000, interval: 50 });

    // A database that takes requests and never answers holds a ping for the driver's 10 s socket timeout.
    proxy.stallReplies(true);
    try {
      const readiness = await timed(server, '/health');
      expect(readiness).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(readiness.ms).toBeLessThan(1000);
      expect(await timed(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      proxy.stallReplies(false);
    }
  }, 30_000);

  it('answers no 500 while the database goes away and comes back under 20 keep-alive clients, three times', async () => {
    const traffic = startTraffic(server.url, { clients: 20, keepAlive: true, next: readsAndWrites(postId) });
    for (let round = 0; round < 3; round++) {
      const before = traffic.outcomes.length;
      await vi.waitFor(() => expect(traffic.outcomes.slice(before).filter((outcome) => outcome.status === 201).length).toBeGreaterThan(20), { timeout: 10_000 });
      await proxy.goDown();
      const down = traffic.outcomes.length;
      await vi.waitFor(() => expect(traffic.outcomes.slice(down).filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0), { timeout: 10_000 });
      await proxy.comeBack();
    }
    const outcomes = await traffic.stop();
    // Answered, each with its success or 503: no 500, no error of the connection.
    expect(Object.keys(tally(outcomes)).filter((kind) => !['GET 200', 'GET 503', 'POST 201', 'POST 503'].includes(kind))).toEqual([]);
    expect(server.child.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  }, 60_000);
});

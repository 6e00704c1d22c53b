// A real server process whose database goes away, answers slowly, stops answering, and comes
// back, under load: readiness answers within a second, 503 only while the database cannot be
// reached (a slow one can), liveness is 200 throughout, no request answers 500, and each outage
// is one warn line as it begins and one as it ends.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell, type ChildServer } from '../support/start-inkwell.js';
import { readsAndWrites, startTraffic, tally, TRAFFIC_ENV } from '../support/traffic.js';

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
    server = await startInkwell({ in: 'child', store: { url: proxy.url, database: mongo.database }, env: { JWT_SECRET, ...TRAFFIC_ENV } });
    const created = await server.send('POST', '/posts', { title: 'Outage', body: 'b', authorId: 'a', published: true });
    postId = ((await created.json()) as { post: { id: string } }).post.id;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await mongo?.cleanup();
  });

  it('answers readiness 503, each probe within a second, while the database is gone, liveness 200 throughout, and 200 again once it is back', async () => {
    expect(await timed(server, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });

    await proxy.goDown();
    // A ping fails within its server selection (2 s) of the next second's.
    await vi.waitFor(async () => expect(await timed(server, '/health')).toMatchObject({ status: 503, body: { status: 'unavailable' } }), { timeout: 5000, interval: 100 });
    for (const readiness of [await timed(server, '/health'), await timed(server, '/health')]) {
      expect(readiness).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(readiness.ms).toBeLessThan(1000);
    }
    expect(await timed(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    await proxy.comeBack();
    await vi.waitFor(async () => expect((await timed(server, '/health')).status).toBe(200), { timeout: 5000, interval: 50 });
  }, 30_000);

  it('keeps readiness 200, each probe within a second, while every database reply comes 1 s late and requests succeed', async () => {
    const startedAt = Date.now();
    proxy.delayQueries(1000);
    try {
      const probes: { status: number; ms: number }[] = [];
      const reads: Promise<{ status: number; ms: number }>[] = [];
      const until = performance.now() + 6000;
      while (performance.now() < until) {
        reads.push(timed(server, `/posts/${postId}`));
        probes.push(await timed(server, '/health'));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(probes.length).toBeGreaterThan(10);
      expect(probes.filter((probe) => probe.status !== 200 || probe.ms >= 1000)).toEqual([]);
      const answered = await Promise.all(reads);
      expect(new Set(answered.map((read) => read.status))).toEqual(new Set([200]));
      // Slow indeed: every read waits for at least one late reply.
      expect(Math.min(...answered.map((read) => read.ms))).toBeGreaterThanOrEqual(1000);
      expect(jsonRecords(server.child.lines).filter((record) => (record.time as number) >= startedAt && String(record.msg).startsWith('store: unreachable'))).toEqual([]);
    } finally {
      proxy.delayQueries(0);
    }
  }, 30_000);

  it('answers readiness 503, each probe within a second, once a database that takes requests and answers nothing fails them, and 200 once it answers again', async () => {
    proxy.stallReplies(true);
    try {
      // The driver gives up on a silent server when its monitor's check goes unanswered (2 s, within
      // its 10 s heartbeat): requests fail then, and so does the ping.
      const read = timed(server, `/posts/${postId}`);
      await vi.waitFor(async () => expect((await timed(server, '/health')).status).toBe(503), { timeout: 15_000, interval: 250 });
      const readiness = await timed(server, '/health');
      expect(readiness).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(readiness.ms).toBeLessThan(1000);
      expect(await timed(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await read).toMatchObject({ status: 503, body: { error: 'Service unavailable' } });
    } finally {
      proxy.stallReplies(false);
      await vi.waitFor(async () => expect((await timed(server, '/health')).status).toBe(200), { timeout: 15_000, interval: 100 });
    }
  }, 40_000);

  it('answers no 500 while the database goes away and comes back under 20 keep-alive clients, three times, and logs each outage in two lines', async () => {
    const startedAt = Date.now();
    const traffic = startTraffic(server.url, { clients: 20, keepAlive: true, next: readsAndWrites(postId) });
    for (let round = 0; round < 3; round++) {
      const before = traffic.outcomes.length;
      await vi.waitFor(() => expect(traffic.outcomes.slice(before).filter((outcome) => outcome.status === 201).length).toBeGreaterThan(20), { timeout: 10_000 });
      await proxy.goDown();
      const down = traffic.outcomes.length;
      await vi.waitFor(() => expect(traffic.outcomes.slice(down).filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0), { timeout: 10_000 });
      // Down until the process has seen it (a ping failed), back until it has seen that too.
      await vi.waitFor(async () => expect((await fetch(`${server.url}/health`)).status).toBe(503), { timeout: 10_000, interval: 50 });
      await proxy.comeBack();
      await vi.waitFor(async () => expect((await fetch(`${server.url}/health`)).status).toBe(200), { timeout: 10_000, interval: 50 });
    }
    const outcomes = await traffic.stop();
    // Answered, each with its success or 503: no 500, no error of the connection.
    expect(Object.keys(tally(outcomes)).filter((kind) => !['GET 200', 'GET 503', 'POST 201', 'POST 503'].includes(kind))).toEqual([]);
    expect(server.child.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
    // One warn line as each outage begins and one as it ends, with the 503s it caused.
    const storeLines = () => jsonRecords(server.child.lines).filter((record) => String(record.msg).startsWith('store: ') && (record.time as number) >= startedAt);
    // Lines reach stdout in batches, within 100 ms.
    await vi.waitFor(() => expect(storeLines().length).toBeGreaterThanOrEqual(6), { timeout: 5000 });
    const changes = storeLines();
    expect(changes.map((record) => [record.level, String(record.msg).split(' ').slice(0, 2).join(' ')])).toEqual(
      Array.from({ length: 3 }, () => [[40, 'store: unreachable'], [40, 'store: reachable']]).flat(),
    );
    const counted = changes.filter((record) => record.answered503 !== undefined).reduce((sum, record) => sum + (record.answered503 as number), 0);
    const seen = outcomes.filter((outcome) => outcome.status === 503).length;
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(seen);
  }, 60_000);
});

// A stop under load, as a deploy makes one: SIGTERM while 50 keep-alive clients send GETs and
// POSTs, which go on for 1 s after the signal. Nothing may fail: the process drains (readiness
// 503, every answer with Connection: close) for SHUTDOWN_DRAIN_SECONDS, then finishes what is in
// flight and exits 0. Once as one process, once as a WEB_CONCURRENCY=2 cluster.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { startInkwell } from '../support/start-inkwell.js';
import { readsAndWrites, startTraffic, tally, TRAFFIC_ENV } from '../support/traffic.js';

/** Shorter than production's 5 s, long enough for the second of traffic after the signal. */
const DRAIN_SECONDS = 2;
const IN_FLIGHT_BOUND_MS = 10_000;

describe.skipIf(!mongoTest)('a stop under load loses no request', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  it.each([
    ['one process', 1],
    ['a WEB_CONCURRENCY=2 cluster', 2],
  ])('%s: SIGTERM under 50 keep-alive clients, requests going on for 1 s: none fails, exit 0 after the drain', async (_, workers) => {
    const server = await startInkwell({
      in: 'child',
      store: mongo,
      env: { JWT_SECRET, WEB_CONCURRENCY: String(workers), SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS), ...TRAFFIC_ENV },
    });
    try {
      const created = await server.send('POST', '/posts', { title: 'Read under load', body: 'b', authorId: 'a', published: true });
      const { post } = (await created.json()) as { post: { id: string } };
      const traffic = startTraffic(server.url, { clients: 50, keepAlive: true, next: readsAndWrites(post.id) });
      await vi.waitFor(() => expect(traffic.outcomes.length).toBeGreaterThan(200), { timeout: 20_000 });

      const signalledAt = performance.now();
      server.child.process.kill('SIGTERM');
      // Every serving process has begun its drain: readiness sends load balancers elsewhere.
      await vi.waitFor(() => expect(server.child.lines.filter((line) => line.includes('shutting down: draining')).length).toBe(workers));
      const readiness = await fetch(`${server.url}/health`);
      expect({ status: readiness.status, body: await readiness.json() }).toEqual({ status: 503, body: { status: 'stopping' } });
      const liveness = await fetch(`${server.url}/health/live`);
      expect(liveness.status).toBe(200);

      await new Promise((resolve) => setTimeout(resolve, signalledAt + 1000 - performance.now()));
      const outcomes = await traffic.stop();
      expect(await server.child.exited).toBe(0);
      expect(performance.now() - signalledAt).toBeLessThan(DRAIN_SECONDS * 1000 + IN_FLIGHT_BOUND_MS);

      const afterSignal = outcomes.filter((outcome) => outcome.sentAt >= signalledAt);
      expect(afterSignal.filter((outcome) => outcome.error !== undefined || (outcome.status ?? 0) >= 400)).toEqual([]);
      expect(Object.keys(tally(afterSignal)).sort()).toEqual(['GET 200', 'POST 201']);
      // Answers during the drain close their connections; the clients open new ones, still accepted.
      expect(afterSignal.filter((outcome) => outcome.connection === 'close').length).toBeGreaterThan(50);
      expect(afterSignal.filter((outcome) => outcome.method === 'POST').length).toBeGreaterThan(50);
    } finally {
      await server.close();
    }
  }, 40_000);
});

// A WEB_CONCURRENCY=2 cluster on MongoDB whose workers are killed with SIGKILL: a worker, then its
// replacement 0.15 s after it forks; the same with the database down (the replacement starts and
// serves 503 until it is back); one slot killed 15 times in
// a row; one slot killed four times, then the other once. The other worker answers throughout,
// replacements of a slot come later each time while the other slot's first comes at once, and
// the primary never stops by itself, not even after a whole-process pause.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import type { RestartPolicy } from '@inkwell/app';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell, type ChildServer } from '../support/start-inkwell.js';
import { startTraffic, type Traffic } from '../support/traffic.js';

type Line = Record<string, unknown>;

/** The cluster's JSON lines so far. */
const records = (server: ChildServer): Line[] => jsonRecords(server.child.lines);

/** Resolves with the first line `match` accepts, once the cluster has written it. */
async function line(server: ChildServer, match: (line: Line) => boolean): Promise<Line> {
  let found: Line | undefined;
  await vi.waitFor(
    () => {
      found = records(server).find(match);
      expect(found).toBeDefined();
    },
    { timeout: 20_000, interval: 10 },
  );
  return found as Line;
}

/** The pids of the workers that said they listen. */
const listeningPids = (server: ChildServer) =>
  records(server)
    .filter((record) => String(record.msg).startsWith('inkwell listening on'))
    .map((record) => record.pid as number);

const died = (pid: number) => (record: Line) => record.workerPid === pid && String(record.msg).startsWith(`worker ${pid} died`);
const replacing = (pid: number) => (record: Line) => record.replacedPid === pid;
const kill = (pid: number) => process.kill(pid, 'SIGKILL');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!mongoTest)('a cluster whose workers are killed', () => {
  let mongo: TestMongo;
  let server: ChildServer | undefined;
  let traffic: Traffic | undefined;
  let postId: string;

  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterEach(async () => {
    await traffic?.stop();
    await server?.close();
    traffic = undefined;
    server = undefined;
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  /** A cluster on `url` with one post, and readers of it on new connections (so both workers get them). */
  async function cluster(url: string, restartPolicy?: RestartPolicy): Promise<ChildServer> {
    server = await startInkwell({ in: 'child', store: { url, database: mongo.database }, env: { JWT_SECRET, WEB_CONCURRENCY: '2' }, restartPolicy });
    const created = await server.send('POST', '/posts', { title: 'Served throughout', body: 'b', authorId: 'a', published: true });
    postId = ((await created.json()) as { post: { id: string } }).post.id;
    traffic = startTraffic(server.url, { clients: 4, keepAlive: false, next: () => ({ method: 'GET', path: `/posts/${postId}` }) });
    return server;
  }

  /** Every request sent since `since` (a performance.now() time) was answered `status`. */
  const answeredSince = (since: number, status: number) => {
    const outcomes = (traffic?.outcomes ?? []).filter((outcome) => outcome.sentAt >= since);
    expect(outcomes.length).toBeGreaterThan(10);
    expect(outcomes.filter((outcome) => outcome.status !== status)).toEqual([]);
  };

  it('replaces a killed worker after 1 s, and its replacement killed 0.15 s after its fork after 2 s, serving throughout', async () => {
    const running = await cluster(mongo.url);
    const [first] = listeningPids(running) as [number];
    kill(first);
    const death = await line(running, died(first));
    const servedSince = performance.now();
    const replacement = await line(running, replacing(first));
    await sleep(150);
    kill(replacement.workerPid as number);
    const secondDeath = await line(running, died(replacement.workerPid as number));
    const next = await line(running, replacing(replacement.workerPid as number));
    await vi.waitFor(() => expect(listeningPids(running)).toContain(next.workerPid), { timeout: 20_000 });

    expect([death.restartInMs, secondDeath.restartInMs]).toEqual([1000, 2000]);
    expect((replacement.time as number) - (death.time as number)).toBeGreaterThanOrEqual(1000);
    expect((next.time as number) - (secondDeath.time as number)).toBeGreaterThanOrEqual(2000);
    answeredSince(servedSince, 200);
    expect(records(running).filter((record) => record.level === 60)).toEqual([]);
    expect(running.child.process.exitCode).toBeNull();
  }, 40_000);

  it('with the database down, keeps answering 503 through a death and a replacement that starts without it, and 200 soon after its return', async () => {
    const proxy: MongoProxy = await startMongoProxy(mongo.url);
    try {
      const running = await cluster(proxy.url);
      const [first] = listeningPids(running) as [number];
      await proxy.goDown();
      const downSince = performance.now();
      // A request fails once its server selection gives up (2 s).
      await vi.waitFor(() => expect(traffic?.outcomes.filter((outcome) => outcome.sentAt >= downSince && outcome.status === 503).length).toBeGreaterThan(0), { timeout: 5000 });
      kill(first);
      await line(running, died(first));
      const servedSince = performance.now();
      // The replacement cannot reach the database: it listens all the same, and answers 503.
      const replacement = (await line(running, replacing(first))).workerPid as number;
      await vi.waitFor(() => expect(listeningPids(running)).toContain(replacement), { timeout: 20_000 });
      await line(running, (record) => record.pid === replacement && String(record.msg).includes('cannot reach MongoDB'));
      await sleep(500);
      answeredSince(servedSince, 503);

      await proxy.comeBack();
      const backAt = performance.now();
      // Both workers, each new connection going to the next: the replacement sets the database up at its next ping.
      await vi.waitFor(
        async () => {
          const statuses = await Promise.all(Array.from({ length: 4 }, async () => (await fetch(`${running.url}/posts/${postId}`)).status));
          expect(statuses).toEqual([200, 200, 200, 200]);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(performance.now() - backAt).toBeLessThan(5000);
      expect(records(running).filter((record) => String(record.msg).includes(' died ('))).toHaveLength(1);
      expect(running.child.process.exitCode).toBeNull();
    } finally {
      await proxy.close();
    }
  }, 40_000);

  it('kills one slot 15 times in a row: each replacement later than the last, one crash-loop error, the other worker serving throughout', async () => {
    // Production's delays would take minutes (1 s doubling to 30 s): the same policy, scaled down.
    const policy = { firstDelayMs: 50, maxDelayMs: 200, servedMs: 10_000, crashLoopDeaths: 10 };
    const running = await cluster(mongo.url, policy);
    let victim = listeningPids(running)[0] as number;
    kill(victim);
    await line(running, died(victim));
    const servedSince = performance.now();
    for (let death = 1; death < 15; death++) {
      victim = (await line(running, replacing(victim))).workerPid as number;
      kill(victim);
      await line(running, died(victim));
    }
    const last = (await line(running, replacing(victim))).workerPid as number;
    await vi.waitFor(() => expect(listeningPids(running)).toContain(last), { timeout: 20_000 });

    const deaths = records(running).filter((record) => String(record.msg).includes(' died ('));
    expect(deaths.map((record) => record.restartInMs)).toEqual([50, 100, 200, ...Array<number>(12).fill(200)]);
    const errors = records(running).filter((record) => record.level === 50);
    expect(errors).toEqual([expect.objectContaining({ deathsInRow: 10, msg: expect.stringMatching(/^worker slot \d keeps dying: 10 deaths in a row/) as unknown })]);
    answeredSince(servedSince, 200);
    expect(running.child.process.exitCode).toBeNull();
  }, 60_000);

  it("replaces a healthy slot's first death after the first delay, however often the other slot died", async () => {
    // Production's 1 s doubling to 30 s, scaled down five times.
    const policy = { firstDelayMs: 200, maxDelayMs: 6000, servedMs: 12_000, crashLoopDeaths: 5 };
    const running = await cluster(mongo.url, policy);
    const [first, healthy] = listeningPids(running) as [number, number];
    let victim = first;
    for (let death = 0; death < 4; death++) {
      kill(victim);
      await line(running, died(victim));
      victim = (await line(running, replacing(victim))).workerPid as number;
      await vi.waitFor(() => expect(listeningPids(running)).toContain(victim), { timeout: 20_000 });
    }
    // The other slot's next replacement would now be 3.2 s away; the healthy one's first is 0.2 s.
    kill(healthy);
    const death = await line(running, died(healthy));
    const replacement = await line(running, replacing(healthy));
    expect(death.restartInMs).toBe(200);
    expect((replacement.time as number) - (death.time as number)).toBeLessThan(1000);
    expect(records(running).filter((record) => String(record.msg).includes(' died (')).map((record) => record.restartInMs)).toEqual([200, 400, 800, 1600, 200]);
    expect(running.child.process.exitCode).toBeNull();
  }, 60_000);

  it('keeps a primary that was stopped whole (SIGSTOP) for three times its watchdog limit, then let go on, with its workers', async () => {
    server = await startInkwell({ in: 'child', store: mongo, env: { JWT_SECRET, WEB_CONCURRENCY: '2' }, watchdog: { stallMs: 1000, beatMs: 100 } });
    const running = server;
    const workers = listeningPids(running);
    const primary = running.child.process.pid as number;
    process.kill(primary, 'SIGSTOP');
    await sleep(3000);
    process.kill(primary, 'SIGCONT');
    await sleep(2000);
    expect(records(running).filter((record) => String(record.msg).startsWith('event loop stopped'))).toEqual([]);
    expect(running.child.process.exitCode).toBeNull();
    // No worker died or was replaced, and the cluster still hands out connections.
    expect(records(running).filter((record) => record.replacedPid !== undefined || String(record.msg).includes(' died ('))).toEqual([]);
    expect(listeningPids(running)).toEqual(workers);
    expect((await fetch(`${running.url}/health/live`)).status).toBe(200);
  }, 40_000);
});

// A proxy between inkwell and its database overwrites bytes 21 to 39 of every reply for 3 s: the
// driver loops on such a reply (docs/mongodb.md, "What the driver does with a damaged reply").
// Whatever it does, no process may stay wedged: every request gets an answer or a closed
// connection, and the process recovers or exits non-zero within 15 s; in a cluster, the primary
// replaces it.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell, type ChildServer } from '../support/start-inkwell.js';
import { startTraffic, type Traffic } from '../support/traffic.js';

const DAMAGE = { from: 21, to: 39, byte: 0xff };
const DAMAGED_FOR_MS = 3000;
const WEDGE_BOUND_MS = 15_000;
/** How long a client waits for an answer: the server's own request timeout, 30 s, is longer than the test. */
const CLIENT_TIMEOUT_MS = 20_000;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.skipIf(!mongoTest)('a database whose replies arrive damaged for 3 s', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy;
  let server: ChildServer | undefined;
  let traffic: Traffic | undefined;

  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterEach(async () => {
    await traffic?.stop();
    await server?.close();
    await proxy?.close();
    traffic = undefined;
    server = undefined;
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  /** Serves on the proxy with readers of one post on keep-alive connections, then damages replies for 3 s. */
  async function damaged(workers: number): Promise<{ running: ChildServer; from: number; postId: string }> {
    proxy = await startMongoProxy(mongo.url);
    // A port of its own rather than 0: when every worker of a cluster has died, its replacements
    // listen anew, on the same port only if it is fixed.
    // At the lowest priority: a wedged process spins a core for 11 s, which timing tests in
    // other files would otherwise feel.
    const running = (server = await startInkwell({
      in: 'child',
      store: { url: proxy.url, database: mongo.database },
      env: { JWT_SECRET, WEB_CONCURRENCY: String(workers), PORT: String(await freePort()) },
      priority: 19,
    }));
    const created = await running.send('POST', '/posts', { title: 'Damaged', body: 'b', authorId: 'a', published: true });
    const postId = ((await created.json()) as { post: { id: string } }).post.id;
    traffic = startTraffic(running.url, { clients: 6, keepAlive: true, timeoutMs: CLIENT_TIMEOUT_MS, next: () => ({ method: 'GET', path: `/posts/${postId}` }) });
    // Traffic flowing before the damage; the server runs at the lowest priority, so on a busy
    // machine its first twenty answers may take longer than vi.waitFor's default second.
    await vi.waitFor(() => expect(traffic?.outcomes.length).toBeGreaterThan(20), { timeout: 10_000, interval: 50 });
    proxy.corruptReplies(DAMAGE);
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, DAMAGED_FOR_MS));
    proxy.corruptReplies(null);
    expect(proxy.corruptedReplies).toBeGreaterThan(0);
    return { running, from, postId };
  }

  /** The watchdog's fatal lines so far. */
  const stalls = (running: ChildServer) => jsonRecords(running.child.lines).filter((record) => String(record.msg).startsWith('event loop stopped'));

  it('one process recovers or exits non-zero within 15 s, and every request ends', async () => {
    const { running, from, postId } = await damaged(1);
    let watching = true;
    const recovered = async () => {
      while (watching) {
        const answer = await fetch(`${running.url}/posts/${postId}`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
        if (answer?.status === 200) return 'recovered';
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return 'stopped watching';
    };
    const end = await Promise.race([
      running.child.exited,
      recovered(),
      new Promise((resolve) => setTimeout(resolve, from + WEDGE_BOUND_MS - performance.now(), 'wedged')),
    ]);
    watching = false;
    expect(end).not.toBe('wedged');
    if (end !== 'recovered') {
      // Wedged in the driver's loop until the watchdog ended it (SIGKILL), with one fatal line.
      expect(end).not.toBe(0);
      expect(stalls(running)).toHaveLength(1);
    }
    const outcomes = (await traffic?.stop()) ?? [];
    expect(outcomes.filter((outcome) => outcome.error === 'timeout')).toEqual([]);
  }, 90_000);

  // Both tests give the start of a server at the lowest priority a minute: on a busy machine it is slow.
  it('a cluster replaces a worker that stayed wedged, and serves again', async () => {
    const { running, from, postId } = await damaged(2);
    await vi.waitFor(() => expect(stalls(running).length).toBeGreaterThan(0), { timeout: from + WEDGE_BOUND_MS - performance.now(), interval: 50 });
    const killed = stalls(running).map((record) => record.pid as number);
    for (const pid of killed) await vi.waitFor(() => expect(jsonRecords(running.child.lines).some((record) => record.replacedPid === pid)).toBe(true), { timeout: 20_000 });
    await vi.waitFor(async () => expect((await fetch(`${running.url}/posts/${postId}`)).status).toBe(200), { timeout: 20_000, interval: 100 });
    expect(running.child.process.exitCode).toBeNull();
    const outcomes = (await traffic?.stop()) ?? [];
    expect(outcomes.filter((outcome) => outcome.error === 'timeout')).toEqual([]);
  }, 120_000);
});

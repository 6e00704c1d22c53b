// The end of a drain, under load: 50 keep-alive clients (reads and writes) keep sending through
// the whole drain and past its end, as clients that have not yet heard of the stop do, and 20
// more that kept a connection open and idle since before the stop each send one request in the
// drain's last 200 ms. Every request sent before the drain ended is answered, with its success
// (the idle connections' with `Connection: close`): none is reset or dropped, whether its
// connection waited in the listen backlog, was new or was kept alive. What is sent after the end
// may be refused.
import { Agent } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell, type ChildServer } from '../support/start-inkwell.js';
import { type Outcome, readsAndWrites, send, startTraffic, tally, TRAFFIC_ENV } from '../support/traffic.js';

const DRAIN_SECONDS = 2;

describe('the end of a drain', () => {
  let server: ChildServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers every request sent before it: 50 keep-alive clients sending past it, 20 idle connections used in its last moments', async () => {
    const running = (server = await startInkwell({ in: 'child', store: 'memory', env: { JWT_SECRET, SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS), ...TRAFFIC_ENV } }));
    const created = await running.send('POST', '/posts', { title: 'Read to the end', body: 'b', authorId: 'a', published: true });
    const { post } = (await created.json()) as { post: { id: string } };
    const read = { method: 'GET', path: `/posts/${post.id}` } as const;
    const idle = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    for (const agent of idle) expect((await send(running.url, read, agent)).status).toBe(200);
    const traffic = startTraffic(running.url, { clients: 50, keepAlive: true, next: readsAndWrites(post.id) });
    await vi.waitFor(() => expect(traffic.outcomes.length).toBeGreaterThan(200), { timeout: 20_000 });

    running.child.process.kill('SIGTERM');
    const lastMoments = idle.map(
      (agent, i) => new Promise<Outcome>((resolve) => setTimeout(() => resolve(send(running.url, read, agent)), DRAIN_SECONDS * 1000 - 10 * i - 5)),
    );
    const exited = await running.child.exited;
    const outcomes = await traffic.stop();
    expect(exited).toBe(0);
    expect((await Promise.all(lastMoments)).map(({ status, connection, error }) => ({ status, connection, error }))).toEqual(
      Array(idle.length).fill({ status: 200, connection: 'close', error: undefined }),
    );
    for (const agent of idle) agent.destroy();

    // The drain ends when the process says so: it stops accepting connections then.
    const drained = jsonRecords(running.child.lines).find((record) => String(record.msg).startsWith('drained'));
    const endedAt = drained?.time as number;
    const sentAt = (outcome: { sentAt: number }) => performance.timeOrigin + outcome.sentAt;
    // A connection refused was opened after the end, whatever the time its request was handed to
    // the client (a busy client connects a little later): only the rest were sent on open connections.
    const before = outcomes.filter((outcome) => sentAt(outcome) < endedAt && outcome.error !== 'ECONNREFUSED');
    const lastSecond = before.filter((outcome) => sentAt(outcome) >= endedAt - 1000);
    expect(lastSecond.length).toBeGreaterThan(100);
    expect(before.filter((outcome) => outcome.error !== undefined || (outcome.status ?? 0) >= 400).map((outcome) => ({ ...outcome, beforeEndMs: Math.round(endedAt - sentAt(outcome)) }))).toEqual([]);
    expect(Object.keys(tally(before)).sort()).toEqual(['GET 200', 'POST 201']);
  }, 60_000);
});

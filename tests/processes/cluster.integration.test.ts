// WEB_CONCURRENCY=2 on MongoDB in a real process: two workers besides the primary on one port, sharing the work, and SIGTERM.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonRecords, startInkwell, type ChildRun } from '../support/start-inkwell.js';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';


/** The JSON log lines a process printed, skipping anything that is not JSON. */
function logLines(inkwell: ChildRun): Array<Record<string, unknown>> {
  return jsonRecords(inkwell.lines);
}

/** A POST on a connection of its own (no keep-alive), so node:cluster hands each one to the next worker. */
function createPostOnNewConnection(url: string, title: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/posts`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', connection: 'close' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ title, body: 'served by some worker', authorId: 'cluster-test', published: true }));
  });
}

describe.skipIf(!mongoTest)('WEB_CONCURRENCY=2 on MongoDB', () => {
  let mongo: TestMongo;
  let inkwell: ChildRun;
  let url: string;
  let workerPids: number[];

  beforeAll(async () => {
    mongo = await withTestMongo();
    // No drain: what a stop under load keeps is drain.integration.test.ts's to show.
    inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: mongo, env: { JWT_SECRET, WEB_CONCURRENCY: '2', SHUTDOWN_DRAIN_SECONDS: '0' } });
    url = await inkwell.listening();
    // Both workers print their own listening line, with their own pid.
    await vi.waitFor(
      () => {
        workerPids = logLines(inkwell)
          .filter((line) => String(line.msg).startsWith('inkwell listening on'))
          .map((line) => line.pid as number);
        expect(workerPids).toHaveLength(2);
      },
      { timeout: 20_000, interval: 50 },
    );
  }, 30_000);

  afterAll(async () => {
    await inkwell?.kill();
    await mongo?.cleanup();
  });

  it('runs two worker processes besides the primary, all on one port', () => {
    const primaryPid = inkwell.process.pid;
    expect(new Set(workerPids).size).toBe(2);
    expect(workerPids).not.toContain(primaryPid);
    const listening = logLines(inkwell).filter((line) => String(line.msg).startsWith('inkwell listening on'));
    expect(new Set(listening.map((line) => line.url))).toEqual(new Set([url]));
  });

  it('serves requests from both workers, over one shared store', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push(await createPostOnNewConnection(url, `post ${i}`));
    expect(statuses).toEqual(Array(8).fill(201));

    // Whichever worker answers, the list is the same data.
    const page = (await (await fetch(`${url}/posts?perPage=100`)).json()) as { pagination: { total: number } };
    expect(page.pagination.total).toBe(8);

    await vi.waitFor(() => {
      const served = logLines(inkwell).filter((line) => line.msg === 'request' && line.path === '/posts' && line.method === 'POST');
      expect(new Set(served.map((line) => line.pid))).toEqual(new Set(workerPids));
    });
  });

  it('stops both workers on SIGTERM, each exiting 0, and then the primary exits 0', async () => {
    inkwell.process.kill('SIGTERM');
    expect(await inkwell.exited).toBe(0);
    const lines = logLines(inkwell);
    for (const pid of workerPids) {
      expect(lines).toContainEqual(expect.objectContaining({ pid, msg: 'stopped' }));
      expect(lines).toContainEqual(expect.objectContaining({ workerPid: pid, code: 0 }));
    }
  }, 20_000);
});

// Processes on one MongoDB database must agree on POSTS_ACCESS: a process whose mode differs from
// the one the database was last served with says so in one warning at start, and still starts
// (switching on purpose stays possible).
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell } from '../support/start-inkwell.js';

describe.skipIf(!mongoTest)('POSTS_ACCESS on a database last served in another mode', () => {
  let mongo: TestMongo | undefined;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  /** The warnings a process in `mode` logs as it starts on the test database, once it serves. */
  async function warningsAtStart(mode: 'open' | 'owner', extra: Record<string, string> = {}): Promise<string[]> {
    const server = await startInkwell({
      in: 'child',
      store: mongo as TestMongo,
      env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', POSTS_ACCESS: mode, ...extra },
    });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      return jsonRecords(server.child.lines)
        .filter((line) => line.level === 40)
        .map((line) => String(line.msg));
    } finally {
      await server.close();
    }
  }

  it('warns once when the mode changes, in either direction, and not while it stays', async () => {
    expect(await warningsAtStart('owner')).toEqual([]);
    expect(await warningsAtStart('owner')).toEqual([]);
    const toOpen = await warningsAtStart('open');
    expect(toOpen).toEqual([
      expect.stringMatching(/^POSTS_ACCESS=open, but this database was last served with POSTS_ACCESS=owner\. .*anyone can read and change drafts/),
    ]);
    expect(await warningsAtStart('open')).toEqual([]);
    expect(await warningsAtStart('owner')).toEqual([expect.stringMatching(/^POSTS_ACCESS=owner, but this database was last served with POSTS_ACCESS=open\./)]);
  }, 90_000);

  it('warns once for a whole WEB_CONCURRENCY=2 cluster: the second worker finds the mode the first recorded', async () => {
    expect(await warningsAtStart('owner')).toEqual(expect.any(Array));
    const warnings = await warningsAtStart('open', { WEB_CONCURRENCY: '2' });
    expect(warnings.filter((line) => line.startsWith('POSTS_ACCESS='))).toHaveLength(1);
  }, 90_000);
});

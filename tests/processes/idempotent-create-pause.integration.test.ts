// A create under an idempotency key whose process is only slow, not dead: a real server process
// on MongoDB whose database replies reach it 8 s late (past the 5 s lease), while the client's
// retry on another process takes the key over, stores the post and answers it, and the author
// deletes the post. The slow run then goes on with its insert, under the same id.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET, aPost } from '../support/fixtures.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';

/** Past the 5 s lease, short of the driver's 10 s socket timeout (which would end the slow run with a 503). */
const LATE_MS = 8000;
const title = 'Sent once, retried, deleted';
const body = JSON.stringify({ ...aPost, title, published: true });
const create = (server: ChildServer) =>
  fetch(`${server.url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'slow-then-deleted' }, body });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!mongoTest)('a create whose process is slow past its lease, after the retry answered and the post was deleted', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mongo = await withTestMongo();
    proxy = await startMongoProxy(mongo.url);
  }, 30_000);
  afterAll(async () => {
    proxy?.delayQueries(0);
    await Promise.all(servers.map((server) => server.close()));
    await proxy?.close();
    await mongo?.cleanup();
  });

  it('does not store the deleted post again when the slow run goes on', async () => {
    const env = { JWT_SECRET, POST_WRITES_MAX_PER_ADDRESS: '0' };
    const slow = await startInkwell({ in: 'child', store: { url: proxy.url, database: mongo.database }, env });
    const quick = await startInkwell({ in: 'child', store: { url: mongo.url, database: mongo.database }, env });
    servers.push(slow, quick);
    proxy.delayQueries(LATE_MS);
    const started = performance.now();
    const unanswered = create(slow).catch((error: unknown) => error);
    // The slow run's reservation reached the database at once; only its reply is late.
    await sleep(500);
    let retry = await create(quick);
    while (retry.status === 409 && performance.now() - started < LATE_MS - 500) {
      await sleep(250);
      retry = await create(quick);
    }
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(performance.now() - started).toBeLessThan(LATE_MS); // the retry answered before the slow run woke
    const { post } = (await retry.json()) as { post: { id: string } };
    expect((await fetch(`${quick.url}/posts/${post.id}`, { method: 'DELETE' })).status).toBe(204);

    // The slow run gets its reservation's reply, and sends its insert, which the database runs at once.
    await sleep(Math.max(0, started + LATE_MS + 2000 - performance.now()));
    expect(await mongo.db.collection('posts').countDocuments({ title })).toBe(0);
    await slow.close();
    await unanswered;
  }, 60_000);
});

// A create under an idempotency key whose process is killed between storing the post and keeping
// its answer: a real server process on MongoDB, behind a proxy that keeps the one command that
// keeps the answer from the database, killed with SIGKILL while it waits for it. The client's
// retry, on another process, gets 409 while the dead run's lease lasts, then the post the dead
// run stored, and one post is stored in all.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET, aPost } from '../support/fixtures.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';

/**
 * The start of the command that keeps an idempotency key's answer (and of the one that lets a key
 * go): an `update` of the `idempotencyKeys` collection, as BSON writes its first field.
 */
const KEEPS_AN_ANSWER = Buffer.concat([Buffer.from('\x02update\x00', 'latin1'), Buffer.from([16, 0, 0, 0]), Buffer.from('idempotencyKeys\x00', 'latin1')]);

const body = JSON.stringify({ ...aPost, title: 'Sent once, retried', published: true });
const create = (server: ChildServer) =>
  fetch(`${server.url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'retried-after-a-crash' }, body });

describe.skipIf(!mongoTest)('a create whose process dies between storing the post and keeping its answer', () => {
  let mongo: TestMongo;
  let proxy: MongoProxy;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mongo = await withTestMongo();
    proxy = await startMongoProxy(mongo.url);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await proxy?.close();
    await mongo?.cleanup();
  });

  it('answers the retry, once the lease ended, with the post the dead process stored, replays it after, and stores one post', async () => {
    const dying = await startInkwell({ in: 'child', store: { url: proxy.url, database: mongo.database }, env: { JWT_SECRET } });
    servers.push(dying);
    proxy.withholdRequests((message) => message.includes(KEEPS_AN_ANSWER));
    const unanswered = create(dying).catch((error: unknown) => error);
    await vi.waitFor(() => expect(proxy.withheldRequests).toBe(1), { timeout: 10_000, interval: 20 });
    const [stored, ...more] = await mongo.db.collection('posts').find({}).toArray();
    expect(more).toEqual([]);
    await dying.close(); // SIGKILL: nothing of it survives but what it stored
    expect(await unanswered).toBeInstanceOf(Error);
    proxy.withholdRequests(null);

    const other = await startInkwell({ in: 'child', store: { url: mongo.url, database: mongo.database }, env: { JWT_SECRET } });
    servers.push(other);
    // As a client retries: after Retry-After, until it gets an answer that is not 409.
    const refusals: string[] = [];
    let retry = await create(other);
    while (retry.status === 409 && refusals.length < 20) {
      refusals.push(`${retry.status} ${retry.headers.get('retry-after')} ${((await retry.json()) as { error: string }).error}`);
      await new Promise((resolve) => setTimeout(resolve, Number(retry.headers.get('retry-after')) * 1000));
      retry = await create(other);
    }
    expect(new Set(refusals)).toEqual(new Set(['409 1 Request with this idempotency key is in progress']));
    const answer = { post: { id: stored?._id.toHexString(), title: 'Sent once, retried', body: aPost.body, authorId: aPost.authorId, published: true, createdAt: stored?.createdAt, updatedAt: stored?.createdAt } };
    expect([retry.status, retry.headers.get('etag'), retry.headers.get('idempotent-replayed')]).toEqual([201, '"1"', null]);
    expect(await retry.text()).toBe(JSON.stringify(answer));

    const again = await create(other);
    expect([again.status, again.headers.get('etag'), again.headers.get('idempotent-replayed'), await again.text()]).toEqual([201, '"1"', 'true', JSON.stringify(answer)]);
    expect(await mongo.db.collection('posts').countDocuments()).toBe(1);
    expect(await mongo.db.collection('idempotencyKeys').find({}, { projection: { _id: 0, outcome: 1, postId: 1 } }).toArray()).toEqual([
      { outcome: 'created', postId: answer.post.id },
    ]);
    console.info(`[idempotent create after a crash] the retry was refused ${refusals.length} times (409, Retry-After: 1) before the dead run's lease ended`);
  }, 60_000);
});

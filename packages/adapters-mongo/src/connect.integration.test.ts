import { isDomainError } from '@inkwell/domain';
import { expect, it } from 'vitest';
import { connectMongo, openMongo } from './connect.js';
import { MongoPostRepository } from './mongo-post-repository.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { startMongoProxy } from './test-support/mongo-proxy.js';
import { describeWithMongo, mongoTest } from './test-support/test-mongo.js';

const T0 = 1_767_225_600_000;

// The outage test reroutes the test server through a local proxy, which needs one mongodb:// host.
const canProxy = ((): boolean => {
  try {
    return mongoTest !== null && new URL(mongoTest.url).protocol === 'mongodb:';
  } catch {
    return false;
  }
})();

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describeWithMongo('connectMongo', (mongo) => {
  it('opens the named database, answers ping and closes', async () => {
    const connection = await connectMongo({ url: mongo().url, database: mongo().database });
    expect(connection.db.databaseName).toBe(mongo().database);
    expect(await connection.ping()).toBe(true);
    await connection.close();
    expect(await connection.ping()).toBe(false);
  });

  it('makes repositories on a closed client answer StoreUnavailable', async () => {
    const connection = await connectMongo({ url: mongo().url, database: mongo().database });
    await connection.close();
    const error = await new MongoUserRepository(connection.db).findByEmail('a@example.com').catch((e: unknown) => e);
    expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
  });

  it.skipIf(!canProxy)('connects a client made while the database was gone once it is back, after a failed connect', async () => {
    const proxy = await startMongoProxy(mongo().url);
    await proxy.goDown();
    const connection = openMongo({ url: proxy.url, database: mongo().database, serverSelectionTimeoutMS: 300 });
    try {
      await expect(connection.connect()).rejects.toMatchObject({ name: 'MongoServerSelectionError' });
      await proxy.comeBack();
      await connection.connect();
      expect(await connection.ping()).toBe(true);
    } finally {
      await connection.close();
      await proxy.close();
    }
  }, 15_000);

  it.skipIf(!canProxy)('answers StoreUnavailable while the database is gone and recovers on its own', async () => {
    const proxy = await startMongoProxy(mongo().url);
    const connection = await connectMongo({ url: proxy.url, database: mongo().database, serverSelectionTimeoutMS: 500 });
    try {
      const posts = new MongoPostRepository(connection.db);
      const post = await posts.insert({ title: 't', body: 'b', authorId: 'a', published: true, createdAt: T0, updatedAt: T0 });

      await proxy.goDown();
      const start = performance.now();
      const failures = await Promise.all([
        posts.findById(post.id).catch((e: unknown) => e),
        posts.listPublished(0, 10).catch((e: unknown) => e),
        posts.update(post.id, { title: 'x', updatedAt: T0 + 1 }).catch((e: unknown) => e),
      ]);
      for (const failure of failures) expect(isDomainError(failure, 'StoreUnavailable')).toBe(true);
      expect(performance.now() - start).toBeLessThan(3000);
      expect(await connection.ping()).toBe(false);

      await proxy.comeBack();
      expect(await waitFor(() => connection.ping(), 5000)).toBe(true);
      expect((await posts.findById(post.id))?.post).toEqual(post);
    } finally {
      await connection.close();
      await proxy.close();
    }
  }, 15_000);
});

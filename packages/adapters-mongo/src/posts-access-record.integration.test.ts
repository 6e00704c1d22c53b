import { expect, it } from 'vitest';
import { recordPostsAccess } from './posts-access-record.js';
import { describeWithMongo } from './test-support/test-mongo.js';

describeWithMongo('recordPostsAccess', (mongo) => {
  it('answers null on a database no process has served, then the mode the last process recorded', async () => {
    await mongo().db.collection('deployment').deleteMany({});
    expect(await recordPostsAccess(mongo().db, 'owner', 1)).toBeNull();
    expect(await recordPostsAccess(mongo().db, 'owner', 2)).toBe('owner');
    expect(await recordPostsAccess(mongo().db, 'open', 3)).toBe('owner');
    expect(await recordPostsAccess(mongo().db, 'owner', 4)).toBe('open');
    expect(await mongo().db.collection('deployment').find({}).toArray()).toStrictEqual([{ _id: 'postsAccess', mode: 'owner', recordedAt: 4 }]);
  });

  it('gives each of processes starting together a mode one of them recorded', async () => {
    await mongo().db.collection('deployment').deleteMany({});
    const seen = await Promise.all(['open', 'owner', 'open', 'owner'].map((mode, i) => recordPostsAccess(mongo().db, mode as 'open' | 'owner', i)));
    expect(seen.filter((mode) => mode === null)).toHaveLength(1);
    for (const mode of seen) expect([null, 'open', 'owner']).toContain(mode);
  });
});

import { idsThatNameNothing, describeUserRepositoryContract } from '@inkwell/domain/testing';
import type { NewUser } from '@inkwell/domain';
import { ObjectId } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MongoUserRepository } from './mongo-user-repository.js';
import { recordCommands, type CommandLog } from './test-support/command-log.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const alice: NewUser = {
  email: 'alice@example.com',
  name: 'Alice',
  passwordHash: '$2b$12$abcdefghijklmnopqrstuu5Z7b7nU6ZqGQw0b0p8k0nqzJ1m5m7a',
  createdAt: 1_767_225_600_000,
  updatedAt: 1_767_225_600_000,
};

describeWithMongo('MongoUserRepository', (mongo) => {
  async function emptyRepository(): Promise<MongoUserRepository> {
    await mongo().db.collection('users').deleteMany({});
    return new MongoUserRepository(mongo().db);
  }

  describeUserRepositoryContract('mongo', emptyRepository);

  it('stores the id as the ObjectId _id and exactly the user fields, nothing extra', async () => {
    const users = await emptyRepository();
    const user = await users.insert({ ...alice, isAdmin: true } as NewUser);
    const stored = await mongo().db.collection('users').findOne({});
    expect(stored?._id).toBeInstanceOf(ObjectId);
    expect(stored?._id.toHexString()).toBe(user.id);
    expect(user.id).toMatch(/^[0-9a-f]{24}$/);
    expect(Object.keys(stored ?? {}).sort()).toEqual(['_id', 'createdAt', 'email', 'name', 'passwordHash', 'updatedAt']);
    expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'passwordHash', 'updatedAt']);
  });

  describe('ids it never issues', () => {
    let log: CommandLog;
    beforeEach(async () => {
      log = await recordCommands(mongo().url, mongo().database);
    });
    afterEach(async () => {
      await log.close();
    });

    it('answers null without a query, upper-case hex included', async () => {
      const user = await (await emptyRepository()).insert(alice);
      const users = new MongoUserRepository(log.db);
      const malformed = [...idsThatNameNothing.filter((id) => !/^[0-9a-f]{24}$/.test(id)), user.id.toUpperCase()];
      log.events.length = 0;
      for (const id of malformed) expect(await users.findById(id)).toBeNull();
      expect(log.events).toEqual([]);

      // The listener does see queries: a well-formed id is looked up.
      expect(await users.findById(user.id)).toEqual({ ...alice, id: user.id });
      expect(log.events.map((event) => event.commandName)).toContain('find');
    });
  });
});

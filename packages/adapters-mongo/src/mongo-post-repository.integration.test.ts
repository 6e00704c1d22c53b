import type { NewPost } from '@inkwell/domain';
import { describePostRepositoryContract, idsThatNameNothing } from '@inkwell/domain/testing';
import { CommandStartedEvent, MongoServerError, ObjectId, type Db as MongoDb } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MongoPostRepository } from './mongo-post-repository.js';
import { recordCommands, type CommandLog } from './test-support/command-log.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const T0 = 1_767_225_600_000;
const draft: NewPost = { title: 'Hello', body: 'World', authorId: 'author-1', published: false, createdAt: T0, updatedAt: T0 };

describeWithMongo('MongoPostRepository', (mongo) => {
  async function emptyRepository(): Promise<MongoPostRepository> {
    await mongo().db.collection('posts').deleteMany({});
    return new MongoPostRepository(mongo().db);
  }

  describePostRepositoryContract('mongo', emptyRepository);

  it('stores the id as the ObjectId _id and exactly the post fields with the version, nothing extra', async () => {
    const posts = await emptyRepository();
    const post = await posts.insert({ ...draft, id: 'client-id', views: 7, version: 9 } as NewPost);
    const stored = await mongo().db.collection('posts').findOne({});
    expect(stored?._id).toBeInstanceOf(ObjectId);
    expect(stored?._id.toHexString()).toBe(post.id);
    expect(Object.keys(stored ?? {}).sort()).toEqual(
      ['_id', 'authorId', 'body', 'createdAt', 'published', 'title', 'updatedAt', 'version'].sort(),
    );
    expect(stored?.version).toBe(1);
    expect(post).toStrictEqual({ ...draft, id: post.id });
  });

  it('reads a post stored before versions as version 0, which a condition on 0 matches, and its first update makes 1', async () => {
    const posts = await emptyRepository();
    const _id = new ObjectId();
    await mongo().db.collection('posts').insertOne({ _id, ...draft });
    const id = _id.toHexString();
    expect(await posts.findById(id)).toStrictEqual({ post: { ...draft, id }, version: 0 });
    expect(await posts.update(id, { title: 'x', updatedAt: T0 + 1 }, [1])).toBeNull();
    expect(await posts.update(id, { title: 'Versioned', updatedAt: T0 + 1 }, [0])).toStrictEqual({
      post: { ...draft, id, title: 'Versioned', updatedAt: T0 + 1 },
      version: 1,
    });
    expect(await posts.delete(id, [0])).toBe(false);
    expect(await posts.delete(id, [1])).toBe(true);
  });

  it('refuses to store under an id it never gives', async () => {
    const posts = await emptyRepository();
    await expect(posts.insertAs('not-an-object-id', draft)).rejects.toThrow(/not an id newId gives/);
  });

  /** The winning plan of `query`, or null on a server without a planner (the CI test double). */
  async function winningPlan(query: ReturnType<ReturnType<MongoDb['collection']>['find']>): Promise<string | null> {
    try {
      return JSON.stringify((await query.explain('queryPlanner')).queryPlanner.winningPlan);
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 238) return null;
      throw error;
    }
  }

  it.for([
    ['the published list', { published: true }, 'published_1_createdAt_-1__id_-1'],
    ["an author's own posts", { authorId: 'author-1' }, 'authorId_1_createdAt_-1__id_-1'],
  ] as const)('reads %s from its index, with no in-memory sort', async ([, filter, indexName], context) => {
    const plan = await winningPlan(mongo().db.collection('posts').find(filter).sort({ createdAt: -1, _id: -1 }).skip(20).limit(20));
    // A server without a planner cannot show one; a real MongoDB (Testcontainers, GitHub's CI) must.
    if (plan === null) return context.skip('explain is not implemented by this server');
    expect(plan).toContain(`"indexName":"${indexName}"`);
    expect(plan).not.toContain('"stage":"SORT"');
  });

  describe('on the wire', () => {
    let log: CommandLog;
    let posts: MongoPostRepository;
    beforeEach(async () => {
      await emptyRepository();
      log = await recordCommands(mongo().url, mongo().database);
      posts = new MongoPostRepository(log.db);
    });
    afterEach(async () => {
      await log.close();
    });

    it('makes no query for ids it never issues, upper-case hex included', async () => {
      const post = await posts.insert(draft);
      const malformed = [...idsThatNameNothing.filter((id) => !/^[0-9a-f]{24}$/.test(id)), post.id.toUpperCase()];
      log.events.length = 0;
      for (const id of malformed) {
        expect(await posts.findById(id)).toBeNull();
        expect(await posts.update(id, { title: 'x', updatedAt: T0 + 1 })).toBeNull();
        expect(await posts.update(id, { title: 'x', updatedAt: T0 + 1 }, [1])).toBeNull();
        expect(await posts.delete(id)).toBe(false);
        expect(await posts.delete(id, [1])).toBe(false);
      }
      expect(log.events).toEqual([]);
    });

    it('sends $set with only the given fields, $max of updatedAt and $inc of the version, in one findAndModify', async () => {
      const post = await posts.insert(draft);
      log.events.length = 0;
      await posts.update(post.id, { title: 'New', updatedAt: T0 + 1 });
      const started = log.events.filter((event) => event instanceof CommandStartedEvent);
      expect(started.map((event) => event.commandName)).toEqual(['findAndModify']);
      expect(started[0]?.command.update).toEqual({ $set: { title: 'New' }, $max: { updatedAt: T0 + 1 }, $inc: { version: 1 } });
      expect(started[0]?.command.query).toEqual({ _id: new ObjectId(post.id) });
    });

    it('checks a condition in the filter of the one command that writes', async () => {
      const post = await posts.insert(draft);
      log.events.length = 0;
      expect(await posts.update(post.id, { title: 'New', updatedAt: T0 + 1 }, [1, 3])).not.toBeNull();
      expect(await posts.delete(post.id, [2])).toBe(true);
      const started = log.events.filter((event) => event instanceof CommandStartedEvent);
      expect(started.map((event) => event.commandName)).toEqual(['findAndModify', 'delete']);
      expect(started[0]?.command.query).toEqual({ _id: new ObjectId(post.id), version: { $in: [1, 3] } });
      expect(started[1]?.command.deletes).toEqual([{ q: { _id: new ObjectId(post.id), version: { $in: [2] } }, limit: 1 }]);
    });

    it('answers a second insert under one id with null, in the one insert the unique _id refuses', async () => {
      const id = posts.newId();
      await posts.insertAs(id, draft);
      log.events.length = 0;
      expect(await posts.insertAs(id, draft)).toBeNull();
      expect(log.events.filter((event) => event instanceof CommandStartedEvent).map((event) => event.commandName)).toEqual(['insert']);
    });

    it('runs the count and the page query concurrently', async () => {
      await posts.insert({ ...draft, published: true });
      // Two connections in the pool first, so neither query waits for a handshake.
      await Promise.all([log.db.command({ ping: 1 }), log.db.command({ ping: 1 })]);
      log.events.length = 0;

      const page = await posts.listPublished(0, 10);
      expect(page.total).toBe(1);
      const sequence = log.events.map((event) => `${event instanceof CommandStartedEvent ? 'start' : 'done'} ${event.commandName}`);
      expect(sequence.slice(0, 2).sort()).toEqual(['start aggregate', 'start find']);
      expect(sequence.slice(2).sort()).toEqual(['done aggregate', 'done find']);
    });

    it('answers a page of zero posts with the count alone, since MongoDB reads limit 0 as no limit', async () => {
      await posts.insert({ ...draft, published: true });
      log.events.length = 0;
      expect(await posts.listPublished(0, 0)).toEqual({ posts: [], total: 1 });
      expect(log.events.map((event) => event.commandName)).not.toContain('find');
    });
  });
});

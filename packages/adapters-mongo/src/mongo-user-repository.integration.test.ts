import { idsThatNameNothing, describeUserRepositoryContract } from '@inkwell/domain/testing';
import type { NewSession, NewUser } from '@inkwell/domain';
import { ObjectId } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MongoUserRepository } from './mongo-user-repository.js';
import { recordCommands, type CommandLog } from './test-support/command-log.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const alice: NewUser = {
  email: 'alice@example.com',
  name: 'Alice',
  passwordHash: '$2b$12$abcdefghijklmnopqrstuu5Z7b7nU6ZqGQw0b0p8k0nqzJ1m5m7a',
  emailVerified: false,
  createdAt: 1_767_225_600_000,
  updatedAt: 1_767_225_600_000,
};

const firstSession: NewSession = { createdAt: 1_767_225_600_000, expiresAt: 1_767_225_600_000 + 604_800_000 };

describeWithMongo('MongoUserRepository', (mongo) => {
  async function emptyRepository(): Promise<MongoUserRepository> {
    await mongo().db.collection('users').deleteMany({});
    return new MongoUserRepository(mongo().db);
  }

  describeUserRepositoryContract('mongo', emptyRepository);

  it('stores the id as the ObjectId _id, exactly the user fields and its sessions, nothing extra', async () => {
    const users = await emptyRepository();
    const { user, session } = await users.insert({ ...alice, isAdmin: true } as NewUser, { ...firstSession, token: 'x' } as NewSession);
    const stored = await mongo().db.collection('users').findOne({});
    expect(stored?._id).toBeInstanceOf(ObjectId);
    expect(stored?._id.toHexString()).toBe(user.id);
    expect(user.id).toMatch(/^[0-9a-f]{24}$/);
    expect(Object.keys(stored ?? {}).sort()).toEqual(['_id', 'createdAt', 'email', 'emailVerified', 'name', 'passwordHash', 'sessions', 'updatedAt']);
    expect(stored?.sessions).toStrictEqual([{ id: session.id, ...firstSession }]);
    expect(Object.keys(user).sort()).toEqual(['createdAt', 'email', 'emailVerified', 'id', 'name', 'passwordHash', 'updatedAt']);
  });

  it('reads an account stored before addresses were verified as unverified, and records a reset for it', async () => {
    const users = await emptyRepository();
    const { user } = await users.insert(alice, firstSession);
    await mongo().db.collection('users').updateOne({}, { $unset: { emailVerified: '' } });
    expect(await users.findById(user.id)).toStrictEqual({ ...user, emailVerified: false });
    const reset = { tokenHash: 'h', email: alice.email, requestedAt: alice.createdAt + 1, expiresAt: alice.createdAt + 60_000 };
    expect(await users.recordPasswordReset(reset, 5, alice.createdAt + 1)).toStrictEqual({ user: { ...user, emailVerified: false }, recorded: true });
    expect(await mongo().db.collection('users').findOne({}, { projection: { _id: 0, passwordResets: 1 } })).toStrictEqual({ passwordResets: [reset] });
  });

  it('honours the single reset link of the versions that kept one until it expires, and voids it with the others', async () => {
    const users = await emptyRepository();
    const { user } = await users.insert(alice, firstSession);
    const now = alice.createdAt + 10;
    const legacy = { tokenHash: 'legacy', email: alice.email, requestedAt: now - 5, expiresAt: now + 60_000 };
    await mongo().db.collection('users').updateOne({}, { $set: { passwordReset: legacy } });
    expect(await users.findByPasswordReset('legacy', now)).toStrictEqual(user);
    expect(await users.findByPasswordReset('legacy', now + 60_000)).toBeNull();
    await users.recordPasswordReset({ ...legacy, tokenHash: 'new', requestedAt: now }, 5, now);
    expect(await users.findByPasswordReset('legacy', now + 1)).toStrictEqual(user);
    expect(await users.resetPassword(user.id, 'legacy', 'h2', firstSession, now + 2)).not.toBeNull();
    expect(await users.findByPasswordReset('new', now + 3)).toBeNull();
    expect(await mongo().db.collection('users').findOne({}, { projection: { _id: 0, passwordReset: 1, passwordResets: 1 } })).toStrictEqual({});
  });

  it('stores a reset link as its values, never reading an address or a hash as an expression', async () => {
    const users = await emptyRepository();
    const email = '$email@example.com';
    const { user } = await users.insert({ ...alice, email }, firstSession);
    const link = { tokenHash: '$$ROOT', email, requestedAt: alice.createdAt + 1, expiresAt: alice.createdAt + 60_000 };
    expect(await users.recordPasswordReset(link, 5, alice.createdAt + 1)).toStrictEqual({ user, recorded: true });
    expect(await mongo().db.collection('users').findOne({}, { projection: { _id: 0, passwordResets: 1 } })).toStrictEqual({ passwordResets: [link] });
    expect(await users.findByPasswordReset('$$ROOT', alice.createdAt + 2)).toStrictEqual(user);
  });

  it('gives sessions random 128-bit ids: no two alike, nothing to count up from', async () => {
    const users = await emptyRepository();
    const { user } = await users.insert(alice, firstSession);
    const ids = await Promise.all(Array.from({ length: 20 }, () => users.startSession(user.id, firstSession, 100, firstSession.createdAt)));
    const values = ids.map((session) => session?.id ?? '');
    for (const id of values) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(values).size).toBe(values.length);
  });

  it('checks a token with one find, and changes sessions with one command each, what its request verified included', async () => {
    const { user, session } = await (await emptyRepository()).insert(alice, firstSession);
    const log = await recordCommands(mongo().url, mongo().database);
    try {
      const users = new MongoUserRepository(log.db);
      const now = firstSession.createdAt + 1;
      const commands = async (call: () => Promise<unknown>) => {
        log.events.length = 0;
        await call();
        return log.events.filter((event) => 'command' in event).map((event) => event.commandName);
      };
      expect(await commands(() => users.findWithSession(user.id, session.id, now))).toEqual(['find']);
      expect(await commands(() => users.findWithSession(user.id, null, now))).toEqual(['find']);
      expect(await commands(() => users.startSession(user.id, firstSession, 20, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.extendSession(user.id, session.id, now + 10, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.endSessions(user.id, { sessions: { allExcept: null }, tokensWithoutSession: true }, now))).toEqual([
        'findAndModify',
      ]);
      expect(await commands(() => users.changePassword(user.id, 'h', null, now))).toEqual(['findAndModify']);
      const token = { userId: user.id, sessionId: session.id, issuedAt: now };
      expect(await commands(() => users.startSession(user.id, firstSession, 20, now, { passwordHash: 'h' }))).toEqual(['findAndModify']);
      expect(await commands(() => users.exchangeTokenWithoutSession(user.id, now - 1000, firstSession, 20, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.changePassword(user.id, 'h2', token, now, { passwordHash: 'h', token }))).toEqual(['findAndModify']);
      expect(await commands(() => users.update(user.id, { name: 'A', updatedAt: now }, { passwordHash: 'h2', token }))).toEqual(['findAndModify']);
      const link = { tokenHash: 'hash-of-a-token', email: alice.email, requestedAt: now + 1, expiresAt: now + 60_000 };
      expect(await commands(() => users.recordEmailVerification(user.id, link, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.verifyEmail(link.tokenHash, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.recordPasswordReset(link, 5, now))).toEqual(['findAndModify']);
      // An address without an account costs the same one command.
      expect(await commands(() => users.recordPasswordReset({ ...link, email: 'nobody@example.com' }, 5, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.findByPasswordReset(link.tokenHash, now))).toEqual(['find']);
      expect(await commands(() => users.resetPassword(user.id, link.tokenHash, 'h3', firstSession, now))).toEqual(['findAndModify']);
      expect(await commands(() => users.startDeletion(user.id, now + 60_000, now, { passwordHash: 'h3', token }))).toEqual(['update']);
    } finally {
      await log.close();
    }
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
      const { user, session } = await (await emptyRepository()).insert(alice, firstSession);
      const users = new MongoUserRepository(log.db);
      const malformed = [...idsThatNameNothing.filter((id) => !/^[0-9a-f]{24}$/.test(id)), user.id.toUpperCase()];
      const now = firstSession.createdAt;
      log.events.length = 0;
      for (const id of malformed) {
        expect(await users.findById(id)).toBeNull();
        expect(await users.findWithSession(id, session.id, now)).toBeNull();
        expect(await users.startSession(id, firstSession, 20, now)).toBeNull();
        expect(await users.listSessions(id, now)).toEqual([]);
        expect(await users.extendSession(id, session.id, now + 1, now)).toBeNull();
        expect(await users.endSessions(id, { sessions: 'none', tokensWithoutSession: true }, now)).toBeNull();
        expect(await users.changePassword(id, 'h', null, now)).toBeNull();
        expect(await users.update(id, { name: 'x', updatedAt: now })).toBeNull();
        expect(await users.exchangeTokenWithoutSession(id, now - 1000, firstSession, 20, now)).toBeNull();
        expect(await users.startDeletion(id, now + 1, now, {})).toBe(false);
        expect(await users.resetPassword(id, 'h', 'h2', firstSession, now)).toBeNull();
        expect(await users.recordEmailVerification(id, { tokenHash: 'h', email: alice.email, requestedAt: now, expiresAt: now + 1 }, now)).toBeNull();
        await users.cancelDeletion(id);
        expect(await users.delete(id)).toBe(false);
      }
      expect(log.events).toEqual([]);

      // The listener does see queries: a well-formed id is looked up.
      expect(await users.findById(user.id)).toEqual({ ...alice, id: user.id });
      expect(log.events.map((event) => event.commandName)).toContain('find');
    });
  });
});

import { isDomainError, type MessageKind, type NewMessage } from '@inkwell/domain';
import { describeOutboxContract } from '@inkwell/domain/testing';
import { randomBytes } from 'node:crypto';
import { CommandStartedEvent, ObjectId } from 'mongodb';
import { expect, it } from 'vitest';
import { connectMongo } from './connect.js';
import { MongoOutbox, type MongoOutboxOptions } from './mongo-outbox.js';
import { recordCommands } from './test-support/command-log.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const T0 = 1_767_225_600_000;
const LEASE = 25_000;
const KEY = randomBytes(32);
/** A token as the domain makes them: 32 random bytes, base64url. */
const newToken = () => randomBytes(32).toString('base64url');
const reset = (token = newToken()): NewMessage => ({ kind: 'password-reset', to: 'alice@example.com', token, requestedAt: T0 });

describeWithMongo('MongoOutbox', (mongo) => {
  const outbox = (options: Partial<MongoOutboxOptions> = {}, db = mongo().db) => new MongoOutbox(db, { tokenKey: KEY, ...options });
  const stored = () => mongo().db.collection('outbox').find({}).toArray();

  describeOutboxContract('mongo', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    return outbox();
  });

  it('stores no token in clear, in any form: only sealed, with a nonce of its own per message', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const token = newToken();
    await outbox().add(reset(token));
    await outbox().add({ ...reset(token), kind: 'email-verification', userId: 'u1' });
    const documents = await stored();
    expect(documents).toHaveLength(2);
    const raw = Buffer.from(token, 'base64url');
    const forms = [token, raw.toString('base64'), raw.toString('hex'), raw.toString('latin1')];
    for (const document of documents) {
      const text = JSON.stringify(document);
      for (const form of forms) expect(text).not.toContain(form);
      expect(document).not.toHaveProperty('token');
      // 12-byte nonce, the 43 bytes of the token, 16-byte tag.
      expect(Buffer.from(document.sealedToken as string, 'base64url')).toHaveLength(12 + 43 + 16);
    }
    expect(documents[0]?.sealedToken).not.toBe(documents[1]?.sealedToken);
  });

  it('stores exactly the message fields, its delivery state and the sealed token, nothing a caller smuggles in', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const notice = { kind: 'email-changed' as MessageKind, to: 'old@example.com', userId: 'u1', newEmail: 'new@example.com', requestedAt: T0, extra: 'x' };
    // `newEmail` is what notices carried before they stopped naming the new address: never stored.
    const added = await outbox().add(notice);
    const [document] = await stored();
    expect(document).toStrictEqual({
      _id: ObjectId.createFromHexString(added.id),
      kind: 'email-changed',
      to: 'old@example.com',
      userId: 'u1',
      requestedAt: T0,
      attempts: 0,
      nextAttemptAt: T0,
      holder: null,
      leaseUntil: 0,
    });
  });

  it('opens a token sealed by another process with the same key', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const other = await connectMongo({ url: mongo().url, database: mongo().database });
    try {
      const token = newToken();
      await outbox({}, other.db).add(reset(token));
      const [claimed] = await outbox().claim('b', T0, LEASE, 10);
      expect(claimed?.token).toBe(token);
    } finally {
      await other.close();
    }
  });

  it('removes a message whose token does not open under its key (the key changed), says which, and claims the next', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const lost = await outbox({ tokenKey: randomBytes(32) }).add(reset());
    const kept = await outbox().add({ ...reset(), requestedAt: T0 + 1 });
    const unreadable: unknown[] = [];
    const claimed = await outbox({ onUnreadable: (message) => unreadable.push(message) }).claim('a', T0 + 1, LEASE, 10);
    expect(claimed.map((message) => message.id)).toEqual([kept.id]);
    expect(unreadable).toEqual([{ id: lost.id, kind: 'password-reset' }]);
    expect((await stored()).map((document) => String(document._id))).toEqual([kept.id]);
  });

  it('binds a sealed token to its message: moved to another message, it does not open', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const first = await outbox().add(reset());
    const second = await outbox().add({ ...reset(), requestedAt: T0 + 1 });
    const collection = mongo().db.collection('outbox');
    const sealedToken = (await collection.findOne({ _id: ObjectId.createFromHexString(first.id) }))?.sealedToken as string;
    await collection.updateOne({ _id: ObjectId.createFromHexString(second.id) }, { $set: { sealedToken } });
    const unreadable: unknown[] = [];
    const claimed = await outbox({ onUnreadable: (message) => unreadable.push(message) }).claim('a', T0 + 1, LEASE, 10);
    expect(claimed.map((message) => message.id)).toEqual([first.id]);
    expect(unreadable).toEqual([{ id: second.id, kind: 'password-reset' }]);
  });

  it('hands each of many messages to exactly one of two processes claiming at once', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const other = await connectMongo({ url: mongo().url, database: mongo().database });
    try {
      const added = await Promise.all(Array.from({ length: 40 }, (_, i) => outbox().add({ ...reset(), requestedAt: T0 + (i % 4) })));
      const here = outbox();
      const there = outbox({}, other.db);
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? here : there).claim(`holder-${i}`, T0 + 10, LEASE, 6)));
      const claimed = claims.flat().map((message) => message.id);
      expect(claimed).toHaveLength(new Set(claimed).size);
      const rest = await here.claim('last', T0 + 10, LEASE, 100);
      expect([...claimed, ...rest.map((message) => message.id)].sort()).toEqual(added.map((message) => message.id).sort());
    } finally {
      await other.close();
    }
  });

  it('claims each message in one conditional findAndModify and stops at the first that finds none', async () => {
    await mongo().db.collection('outbox').deleteMany({});
    await outbox().add(reset());
    await outbox().add({ ...reset(), requestedAt: T0 + 1 });
    const log = await recordCommands(mongo().url, mongo().database);
    try {
      expect(await outbox({}, log.db).claim('a', T0 + 1, LEASE, 10)).toHaveLength(2);
      const started = log.events.filter((event) => event instanceof CommandStartedEvent);
      expect(started.map((event) => event.commandName)).toEqual(['findAndModify', 'findAndModify', 'findAndModify']);
      expect(started[0]?.command).toMatchObject({
        query: { nextAttemptAt: { $lte: T0 + 1 }, $expr: { $lte: ['$leaseUntil', { $toLong: '$$NOW' }] } },
        update: [{ $set: { holder: { $literal: 'a' }, leaseUntil: { $add: [{ $toLong: '$$NOW' }, LEASE] } } }],
      });
      expect([...(started[0]?.command.sort as Map<string, number>)]).toEqual([['nextAttemptAt', 1], ['_id', 1]]);
    } finally {
      await log.close();
    }
  });

  it("counts a lease from the database's time when it grants it, whatever the caller's clock says", async () => {
    await mongo().db.collection('outbox').deleteMany({});
    const added = await outbox().add(reset());
    // A caller whose clock is an hour behind (or whose claim took long to arrive) still holds the message for the whole lease.
    const before = Date.now();
    await outbox().claim('a', T0, 2_000, 10);
    const [document] = await stored();
    expect(Number(document?.leaseUntil)).toBeGreaterThanOrEqual(before + 2_000);
    expect(Number(document?.leaseUntil)).toBeLessThan(Date.now() + 2_000 + 1_000);
    expect(await outbox().claim('b', Date.now() + 3_600_000, LEASE, 10)).toEqual([]);
    expect(await outbox().renew(added.id, 'a', T0 - 3_600_000, 2_000)).toBe(true);
    expect(Number((await stored())[0]?.leaseUntil)).toBeGreaterThanOrEqual(before + 2_000);
  });

  it('ignores an id it never issues, and a key of the wrong size is refused at once', async () => {
    await expect(outbox().remove('not-an-id', 'a')).resolves.toBeUndefined();
    await expect(outbox().retryLater('not-an-id', 'a', T0)).resolves.toBeUndefined();
    expect(() => outbox({ tokenKey: randomBytes(16) })).toThrow(RangeError);
  });

  it('fails closed: on an unreachable database every operation answers StoreUnavailable', async () => {
    const connection = await connectMongo({ url: mongo().url, database: mongo().database });
    await connection.close();
    const closed = outbox({}, connection.db);
    const id = new ObjectId().toHexString();
    for (const operation of [
      () => closed.add(reset()),
      () => closed.claim('a', T0, LEASE, 1),
      () => closed.renew(id, 'a', T0, LEASE),
      () => closed.remove(id, 'a'),
      () => closed.retryLater(id, 'a', T0),
    ]) {
      const error = await operation().catch((e: unknown) => e);
      expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
    }
  });
});

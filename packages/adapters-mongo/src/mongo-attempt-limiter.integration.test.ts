import { isDomainError } from '@inkwell/domain';
import { describeAttemptLimiterContract, manualClock } from '@inkwell/domain/testing';
import { CommandStartedEvent } from 'mongodb';
import { expect, it } from 'vitest';
import { connectMongo } from './connect.js';
import { MongoAttemptLimiter, type MongoAttemptLimiterOptions } from './mongo-attempt-limiter.js';
import { recordCommands } from './test-support/command-log.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const KEY_SECRET = 'attempt-limiter-test-key';
let rules = 0;
/** A rule name no earlier test used, so every limiter starts from no counts. */
const newRule = () => `rule-${++rules}`;

describeWithMongo('MongoAttemptLimiter', (mongo) => {
  const limiter = (options: Partial<MongoAttemptLimiterOptions> = {}, db = mongo().db) =>
    new MongoAttemptLimiter(db, { rule: newRule(), max: 10, windowSeconds: 60, clock: manualClock(), keySecret: KEY_SECRET, ...options });

  describeAttemptLimiterContract('mongo', (options) => limiter(options));

  it('counts exactly across processes: 60 concurrent takes through two clients with max 10 allow 10', async () => {
    const other = await connectMongo({ url: mongo().url, database: mongo().database });
    try {
      const clock = manualClock();
      const rule = newRule();
      const here = limiter({ rule, clock });
      const there = limiter({ rule, clock }, other.db);
      for (const key of ['fresh key', 'open window']) {
        if (key === 'open window') await here.take(key);
        const verdicts = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? here : there).take(key)));
        expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(key === 'open window' ? 9 : 10);
      }
    } finally {
      await other.close();
    }
  });

  it('keeps the counts of rules sharing the collection apart', async () => {
    const clock = manualClock();
    const perEmail = limiter({ rule: newRule(), max: 1, clock });
    const perAddress = limiter({ rule: newRule(), max: 1, clock });
    expect(await perEmail.take('same key')).toEqual({ allowed: true, window: expect.any(String) });
    expect(await perAddress.take('same key')).toEqual({ allowed: true, window: expect.any(String) });
    expect((await perEmail.take('same key')).allowed).toBe(false);
  });

  it('stores no key in clear: the id is the rule and an HMAC of the key, and the window ends with the TTL field', async () => {
    const clock = manualClock();
    const rule = newRule();
    const keys = ['alice@example.com', '203.0.113.9'];
    for (const key of keys) await limiter({ rule, clock }).take(key);
    const stored = await mongo().db.collection<{ _id: string }>('attemptLimits').find({ _id: { $regex: `^${rule}:` } }).toArray();
    expect(stored).toHaveLength(2);
    for (const document of stored) {
      expect(String(document._id)).toMatch(new RegExp(`^${rule}:[A-Za-z0-9_-]{43}$`));
      expect(document).toStrictEqual({
        _id: document._id,
        window: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
        count: 1,
        endsAt: clock.now() + 60_000,
        expireAt: new Date(clock.now() + 60_000),
        allowed: true,
      });
      for (const key of keys) expect(JSON.stringify(document)).not.toContain(key);
    }
    // Another secret gives other ids: without the secret, a list of e-mails cannot be matched against them.
    await limiter({ rule, clock, keySecret: 'another secret' }).take(keys[0] as string);
    expect(await mongo().db.collection<{ _id: string }>('attemptLimits').countDocuments({ _id: { $regex: `^${rule}:` } })).toBe(3);
  });

  it('gives a window to a count stored before windows had ids, and gives attempts back to it', async () => {
    const clock = manualClock();
    const rule = newRule();
    const limits = limiter({ rule, clock, max: 2 });
    await limits.take('k');
    await mongo().db.collection<{ _id: string }>('attemptLimits').updateOne({ _id: { $regex: `^${rule}:` } }, { $unset: { window: '' } });
    const verdict = await limits.take('k');
    expect(verdict).toEqual({ allowed: true, window: expect.any(String) });
    await limits.giveBack('k', verdict.allowed ? (verdict.window as string) : '');
    expect(await limits.take('k')).toEqual(verdict);
    expect((await limits.take('k')).allowed).toBe(false);
  });

  it('takes an attempt in one conditional update, never a read and then a write', async () => {
    const log = await recordCommands(mongo().url, mongo().database);
    try {
      const limits = limiter({ max: 2 }, log.db);
      for (let i = 0; i < 3; i++) await limits.take('k');
      const started = log.events.filter((event) => event instanceof CommandStartedEvent);
      expect(started.map((event) => event.commandName)).toEqual(['findAndModify', 'findAndModify', 'findAndModify']);
      expect(started[0]?.command).toMatchObject({ upsert: true, new: true, update: expect.any(Array) });
    } finally {
      await log.close();
    }
  });

  it('fails closed: on an unreachable database every operation answers StoreUnavailable', async () => {
    const connection = await connectMongo({ url: mongo().url, database: mongo().database });
    await connection.close();
    const limits = limiter({}, connection.db);
    for (const operation of [() => limits.take('k'), () => limits.giveBack('k', 'w'), () => limits.reset('k')]) {
      const error = await operation().catch((e: unknown) => e);
      expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
    }
  });
});

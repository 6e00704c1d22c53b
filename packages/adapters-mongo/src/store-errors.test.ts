import { DomainError, isDomainError } from '@inkwell/domain';
import {
  MongoClient,
  MongoClientClosedError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { MongoPostRepository } from './mongo-post-repository.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { callStore, isStoreUnavailableError } from './store-errors.js';

const SOME_ID = '0123456789abcdef01234567';
const T0 = 1_767_225_600_000;

describe('repositories without a database', () => {
  // Port 1 on the loopback is closed; nothing is listening, so every query fails server selection.
  const client = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 300 });
  const users = new MongoUserRepository(client.db('inkwell_test'));
  const posts = new MongoPostRepository(client.db('inkwell_test'));
  const keys = new MongoIdempotencyStore(client.db('inkwell_test'));
  afterAll(async () => {
    await client.close();
  });

  it('reject every method with StoreUnavailable, caused by the driver error, quickly', async () => {
    const start = performance.now();
    const calls: Promise<unknown>[] = [
      users.insert({ email: 'a@example.com', name: 'A', passwordHash: 'h', emailVerified: false, createdAt: T0, updatedAt: T0 }, { createdAt: T0, expiresAt: T0 + 1 }),
      users.findByEmail('a@example.com'),
      users.findById(SOME_ID),
      users.findWithSession(SOME_ID, 's', T0),
      users.startSession(SOME_ID, { createdAt: T0, expiresAt: T0 + 1 }, 20, T0),
      users.listSessions(SOME_ID, T0),
      users.extendSession(SOME_ID, 's', T0 + 1, T0),
      users.endSessions(SOME_ID, { sessions: 'none', tokensWithoutSession: true }, T0),
      users.changePassword(SOME_ID, 'h', null, T0),
      users.update(SOME_ID, { name: 'x', updatedAt: T0 }),
      users.exchangeTokenWithoutSession(SOME_ID, T0 - 1000, { createdAt: T0, expiresAt: T0 + 1 }, 20, T0),
      users.startDeletion(SOME_ID, T0 + 1, T0, {}),
      users.cancelDeletion(SOME_ID),
      users.delete(SOME_ID),
      users.removeExpiredSessions(T0),
      users.recordPasswordReset({ tokenHash: 'h', email: 'a@example.com', requestedAt: T0, expiresAt: T0 + 1 }, 5, T0),
      users.findByPasswordReset('h', T0),
      users.resetPassword(SOME_ID, 'h', 'h2', { createdAt: T0, expiresAt: T0 + 1 }, T0),
      users.recordEmailVerification(SOME_ID, { tokenHash: 'h', email: 'a@example.com', requestedAt: T0, expiresAt: T0 + 1 }, T0),
      users.verifyEmail('h', T0),
      posts.insert({ title: 't', body: 'b', authorId: 'a', published: true, createdAt: T0, updatedAt: T0 }),
      posts.findById(SOME_ID),
      posts.insertAs(SOME_ID, { title: 't', body: 'b', authorId: 'a', published: true, createdAt: T0, updatedAt: T0 }),
      posts.update(SOME_ID, { title: 'x', updatedAt: T0 }),
      posts.update(SOME_ID, { title: 'x', updatedAt: T0 }, [1]),
      posts.delete(SOME_ID),
      posts.delete(SOME_ID, [1]),
      keys.reserve({ key: 'k', fingerprint: 'f', lease: 'l', leaseUntil: T0 + 1, postId: SOME_ID, createdAt: T0, expiresAt: T0 + 2 }, T0),
      keys.complete('k', 'l', 'created'),
      keys.release('k', 'l'),
      posts.listPublished(0, 20),
      posts.countPublished(),
      posts.deleteByAuthor('a'),
    ];
    const errors = await Promise.all(calls.map((call) => call.then(() => undefined, (e: unknown) => e)));
    // The first call's implicit connect fails server selection and closes the topology, so the
    // calls queued behind it fail with MongoTopologyClosedError: both are the same outage.
    for (const error of errors) {
      expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
      expect((error as DomainError).cause).toSatisfy(
        (cause) => cause instanceof MongoServerSelectionError || cause instanceof MongoTopologyClosedError,
      );
      expect((error as DomainError).message).toBe('StoreUnavailable');
    }
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('still answer ids they never issue without touching the store', async () => {
    expect(await users.findById('nope')).toBeNull();
    expect(await posts.findById('nope')).toBeNull();
    expect(await posts.update('nope', { updatedAt: T0 })).toBeNull();
    expect(await posts.delete('nope')).toBe(false);
  });
});

describe('isStoreUnavailableError', () => {
  it.each([
    ['a network error', new MongoNetworkError('socket closed')],
    ['a network timeout', new MongoNetworkTimeoutError('timed out')],
    ['a client that never connected', new MongoNotConnectedError('not connected')],
    ['a closed topology', new MongoTopologyClosedError()],
    ['a client closed mid-operation', new MongoClientClosedError()],
    ['a node shutting down', new MongoServerError({ message: 'shutdown in progress', code: 91 })],
    ['a primary that stepped down', new MongoServerError({ message: 'not primary', code: 10107 })],
    // What the driver lets through unwrapped when it writes to a connection the database just closed.
    ['a write to a socket the database ended (EPIPE)', socketError('This socket has been ended by the other party', 'EPIPE')],
    ['a connection reset by the database (ECONNRESET)', socketError('read ECONNRESET', 'ECONNRESET')],
  ])('is true for %s', (_, error) => {
    expect(isStoreUnavailableError(error)).toBe(true);
  });

  it.each([
    ['a duplicate key', new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 })],
    ['a bad query', new MongoServerError({ message: 'unknown operator', code: 2 })],
    ['a plain error', new Error('boom')],
    ['a file system error', socketError('no such file or directory', 'ENOENT')],
    ['a domain error', new DomainError('PostNotFound')],
    ['a non-error', 'string'],
  ])('is false for %s', (_, error) => {
    expect(isStoreUnavailableError(error)).toBe(false);
  });
});

describe('callStore', () => {
  it('returns the result of the operation', async () => {
    expect(await callStore(async () => 42)).toBe(42);
  });

  it('wraps an unavailable database in StoreUnavailable with the driver error as cause', async () => {
    const driverError = new MongoNetworkError('connection reset');
    const error = await callStore(() => Promise.reject(driverError)).catch((e: unknown) => e);
    expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
    expect((error as DomainError).cause).toBe(driverError);
  });

  it('wraps a lost connection the driver did not wrap (EPIPE) in StoreUnavailable too', async () => {
    const lost = socketError('This socket has been ended by the other party', 'EPIPE');
    const error = await callStore(() => Promise.reject(lost)).catch((e: unknown) => e);
    expect(isDomainError(error, 'StoreUnavailable')).toBe(true);
    expect((error as DomainError).cause).toBe(lost);
  });

  it('passes every other error through unchanged', async () => {
    for (const original of [new MongoServerError({ message: 'bad', code: 2 }), new TypeError('bug'), new DomainError('EmailAlreadyInUse')]) {
      await expect(callStore(() => Promise.reject(original))).rejects.toBe(original);
    }
  });
});

/** An error as Node's sockets raise it: a plain Error with a system error code. */
function socketError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

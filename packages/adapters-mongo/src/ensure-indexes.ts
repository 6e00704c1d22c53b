import type { Db } from 'mongodb';
import { attemptLimitsCollection, idempotencyKeysCollection, outboxCollection, postsCollection, usersCollection } from './collections.js';

/** Creates the indexes the repositories rely on. Idempotent, so it can run at every start. */
export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    // Correctness, not speed: this index is what lets exactly one of concurrent signups win.
    usersCollection(db).createIndex({ email: 1 }, { unique: true }),
    // Finds the accounts with an expired session for the periodic sweep (removeExpiredSessions),
    // without scanning every user.
    usersCollection(db).createIndex({ 'sessions.expiresAt': 1 }),
    // Find the account a mailed link's token belongs to, by its hash (confirming a password reset,
    // verifying an e-mail). Sparse: most accounts have no link outstanding. `passwordReset` is the
    // single reset link of earlier versions, honoured until it expires.
    usersCollection(db).createIndex({ 'passwordResets.tokenHash': 1 }, { sparse: true }),
    usersCollection(db).createIndex({ 'passwordReset.tokenHash': 1 }, { sparse: true }),
    usersCollection(db).createIndex({ 'emailVerification.tokenHash': 1 }, { sparse: true }),
    // Serves the published list: equality on `published`, then the list order (see MongoPostRepository).
    postsCollection(db).createIndex({ published: 1, createdAt: -1, _id: -1 }),
    // Serves an author's own posts (`GET /me/posts`): equality on `authorId`, then the list order.
    postsCollection(db).createIndex({ authorId: 1, createdAt: -1, _id: -1 }),
    // Housekeeping, not correctness: MongoDB's TTL monitor (about once a minute) removes windows
    // that have ended; MongoAttemptLimiter judges windows by `endsAt` itself.
    attemptLimitsCollection(db).createIndex({ expireAt: 1 }, { expireAfterSeconds: 0 }),
    // Housekeeping too: idempotency keys past their time to live; MongoIdempotencyStore judges
    // them by `expiresAt` itself.
    idempotencyKeysCollection(db).createIndex({ expireAt: 1 }, { expireAfterSeconds: 0 }),
    // Serves every delivery loop's claim, once a second on every process: the messages due, the
    // earliest first, with the lease checked in the index rather than on each document.
    outboxCollection(db).createIndex({ nextAttemptAt: 1, leaseUntil: 1 }),
  ]);
}

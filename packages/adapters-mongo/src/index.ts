export { MongoUserRepository } from './mongo-user-repository.js';
export { MongoPostRepository } from './mongo-post-repository.js';
export { MongoAttemptLimiter, type MongoAttemptLimiterOptions } from './mongo-attempt-limiter.js';
export { MongoOutbox, type MongoOutboxOptions } from './mongo-outbox.js';
export { answerTimeoutMs, connectMongo, openMongo, pingDatabase, type MongoConnection, type MongoConnectionConfig } from './connect.js';
export { isStoreUnavailableError } from './store-errors.js';
export type { Db as MongoDb } from 'mongodb';
export { ensureIndexes } from './ensure-indexes.js';
export { recordPostsAccess } from './posts-access-record.js';

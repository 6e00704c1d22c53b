export { MongoUserRepository } from './mongo-user-repository.js';
export { MongoPostRepository } from './mongo-post-repository.js';
export { connectMongo, type MongoConnection, type MongoConnectionConfig } from './connect.js';
export { ensureIndexes } from './ensure-indexes.js';
export { redactMongoUrl } from './redact-mongo-url.js';

// Test helpers for packages whose tests need a real MongoDB (or skip without one).
export { mongoTest, withTestMongo, describeWithMongo, type TestMongo } from './test-support/test-mongo.js';
export type { TestMongoServer } from './test-support/test-mongo-server.js';
export { startMongoProxy, type MongoProxy, type ReplyCorruption } from './test-support/mongo-proxy.js';
export { recordCommands, type CommandLog } from './test-support/command-log.js';

// mail-outcomes.suite.ts on MongoDB: two apps, each with its own delivery loop, on one database.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { emptyMongoStore } from '../support/stores.js';
import { describeMailOutcomes } from './mail-outcomes.suite.js';

describeWithMongo('mail outcomes', (mongo) => {
  describeMailOutcomes('one MongoDB database', () => emptyMongoStore(mongo().db));
});

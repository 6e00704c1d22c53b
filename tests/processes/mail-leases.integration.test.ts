// mail-leases.suite.ts on MongoDB: two apps, each with its own delivery loop, on one database.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { emptyMongoStore } from '../support/stores.js';
import { describeMailLeases } from './mail-leases.suite.js';

describeWithMongo('mail leases', (mongo) => {
  describeMailLeases('one MongoDB database', () => emptyMongoStore(mongo().db));
});

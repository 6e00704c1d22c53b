// mail-budgets.suite.ts on MongoDB: two apps, each with its own delivery loop, counting in one database.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { emptyMongoStore } from '../support/stores.js';
import { describeMailBudgets } from './mail-budgets.suite.js';

describeWithMongo('mail budgets', (mongo) => {
  describeMailBudgets('one MongoDB database', () => emptyMongoStore(mongo().db), 2);
});

import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeHeadersAndLogs } from './headers.suite.js';
import { mongoStores } from '../support/stores.js';

describeWithMongo('over MongoDB', (mongo) => describeHeadersAndLogs(mongoStores(mongo)));

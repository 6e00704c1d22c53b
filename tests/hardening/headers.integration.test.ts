// Runs the security headers and request log suite (headers.suite.ts) on a server in this process over MongoDB.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeHeadersAndLogs } from './headers.suite.js';
import { mongoStores } from '../support/stores.js';

describeWithMongo('over MongoDB', (mongo) => describeHeadersAndLogs(mongoStores(mongo)));

import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeHeadersAndLogs } from '../test-support/hardening.headers.js';
import { mongoStores } from '../test-support/hardening.harness.js';

describeWithMongo('over MongoDB', (mongo) => describeHeadersAndLogs(mongoStores(mongo)));

import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeBruteForce } from '../test-support/hardening.brute-force.js';
import { mongoStores } from '../test-support/hardening.harness.js';

describeWithMongo('over MongoDB', (mongo) => describeBruteForce(mongoStores(mongo)));

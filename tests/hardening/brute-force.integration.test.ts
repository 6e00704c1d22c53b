import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeBruteForce } from './brute-force.suite.js';
import { mongoStores } from '../support/stores.js';

describeWithMongo('over MongoDB', (mongo) => describeBruteForce(mongoStores(mongo)));

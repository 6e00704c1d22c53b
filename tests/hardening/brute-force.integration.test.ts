// Runs the brute-force limits suite (brute-force.suite.ts) on a server in this process over MongoDB.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeBruteForce } from './brute-force.suite.js';
import { mongoStores } from '../support/stores.js';

describeWithMongo('over MongoDB', (mongo) => describeBruteForce(mongoStores(mongo)));

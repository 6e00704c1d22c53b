// Runs the fuzz suite's pipelined requests (fuzz.suite.ts) on a real socket of a server in this
// process over MongoDB. The endpoints fuzzed through the app itself: fuzz.integration.test.ts.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeWireFuzz, mongoFuzzStore } from './fuzz.suite.js';

describeWithMongo('over MongoDB', (mongo) => {
  describeWireFuzz(mongoFuzzStore(mongo));
});

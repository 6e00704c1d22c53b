// Runs the fuzz suite (fuzz.suite.ts), open and owner mode, on the app in this process over
// MongoDB. Its pipelined requests on a real socket: fuzz-wire.integration.test.ts.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { describeFuzz, mongoFuzzStore } from './fuzz.suite.js';

describeWithMongo('over MongoDB', (mongo) => {
  describeFuzz(mongoFuzzStore(mongo));
  describeFuzz(mongoFuzzStore(mongo), 'owner');
});

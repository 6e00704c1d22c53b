// Runs the fuzz suite's pipelined requests (fuzz.suite.ts) on a real socket of a server in this
// process over the in-memory store. The endpoints fuzzed through the app itself: fuzz.test.ts.
import { describeWireFuzz, memoryFuzzStore } from './fuzz.suite.js';

describeWireFuzz(memoryFuzzStore);

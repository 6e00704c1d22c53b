// Runs the fuzz suite (fuzz.suite.ts), open and owner mode, on the app in this process over the
// in-memory store. Its pipelined requests on a real socket: fuzz-wire.test.ts.
import { describeFuzz, memoryFuzzStore } from './fuzz.suite.js';

describeFuzz(memoryFuzzStore);
describeFuzz(memoryFuzzStore, 'owner');

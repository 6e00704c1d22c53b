// Runs the fuzz suite (fuzz.suite.ts), open and owner mode, on the app in this process over the in-memory store, and
// its pipelined requests on a real socket of a server in this process.
import { readConfig, openStore } from '@inkwell/app';
import { describeFuzz, describeWireFuzz, trackedSnapshot, type FuzzStoreFactory } from './fuzz.suite.js';

const memory: FuzzStoreFactory = { label: 'memory', open: async () => trackedSnapshot(await openStore(readConfig({ DB_URL: 'memory:' }))) };

describeFuzz(memory);
describeFuzz(memory, 'owner');
describeWireFuzz(memory);

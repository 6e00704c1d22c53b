import { readConfig, openStore } from '@inkwell/app';
import { describeFuzz, trackedSnapshot, type FuzzStoreFactory } from './fuzz.suite.js';

const memory: FuzzStoreFactory = { label: 'memory', open: async () => trackedSnapshot(await openStore(readConfig({ DB_URL: 'memory:' }))) };

describeFuzz(memory);
describeFuzz(memory, 'owner');

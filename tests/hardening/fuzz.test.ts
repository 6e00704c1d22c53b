import { readConfig, openStore } from '@inkwell/app';
import { describeFuzz, trackedSnapshot } from './fuzz.suite.js';

describeFuzz({ label: 'memory', open: async () => trackedSnapshot(await openStore(readConfig({ DB_URL: 'memory:' }))) });

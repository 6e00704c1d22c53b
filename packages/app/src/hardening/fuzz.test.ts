import { readConfig } from '../config.js';
import { openStore } from '../store.js';
import { describeFuzz, trackedSnapshot } from '../test-support/hardening.fuzz.js';

describeFuzz({ label: 'memory', open: async () => trackedSnapshot(await openStore(readConfig({ DB_URL: 'memory:' }))) });

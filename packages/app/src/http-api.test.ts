import { readConfig } from './config.js';
import { openStore } from './store.js';
import { describeHttpApi } from './test-support/http-api.suite.js';

describeHttpApi('memory', () => openStore(readConfig({ DB_URL: 'memory:' })));

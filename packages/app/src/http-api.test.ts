import { memoryStore } from './store.js';
import { inProcessTarget } from './test-support/http-api.harness.js';
import { describeHttpApi } from './test-support/http-api.suite.js';

describeHttpApi(inProcessTarget('the memory store', async () => memoryStore()));

import { memoryStore } from '@inkwell/app';
import { inProcessTarget } from './harness.js';
import { describeHttpApi } from './http-api.suite.js';
import { OWNER_ACCESS } from './owner-client.js';
import { describeOwnerModeApi } from './owner-mode.suite.js';

describeHttpApi(inProcessTarget('the memory store', async () => memoryStore()));
describeOwnerModeApi(inProcessTarget('the memory store', async () => memoryStore(), OWNER_ACCESS));

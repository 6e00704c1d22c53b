import { memoryStore } from '@inkwell/app';
import { inProcessTarget } from './harness.js';
import { describeHttpApi } from './http-api.suite.js';

describeHttpApi(inProcessTarget('the memory store', async () => memoryStore()));

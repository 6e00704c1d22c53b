import { memoryStore } from '@inkwell/app';
import { inProcessTarget } from './harness.js';
import { describeHttpApi } from './http-api.suite.js';
import { OWNER_ACCESS, describeOwnedPostsApi } from './owned-posts.suite.js';

describeHttpApi(inProcessTarget('the memory store', async () => memoryStore()));
describeOwnedPostsApi(inProcessTarget('the memory store', async () => memoryStore(), OWNER_ACCESS));

// Runs the security headers and request log suite (headers.suite.ts) on a server in this process over the in-memory store.
import { describeHeadersAndLogs } from './headers.suite.js';
import { memoryStores } from '../support/stores.js';

describeHeadersAndLogs(memoryStores);

import { describeHeadersAndLogs } from '../test-support/hardening.headers.js';
import { memoryStores } from '../test-support/hardening.harness.js';

describeHeadersAndLogs(memoryStores);

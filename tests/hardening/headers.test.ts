import { describeHeadersAndLogs } from './headers.suite.js';
import { memoryStores } from '../support/stores.js';

describeHeadersAndLogs(memoryStores);
